/**
 * The backend services and their port offsets (SERVICE_PORT_BASE + offset), in one place
 * for the local runner. A service runs once services/<name>/src/server.ts exists.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SERVICE_PORT_OFFSETS = {
  identity: 1,
  study: 2,
  journal: 3,
  community: 4,
  library: 5,
  'research-export': 6,
};

const root = fileURLToPath(new URL('..', import.meta.url));

export function presentServices() {
  return Object.entries(SERVICE_PORT_OFFSETS)
    .filter(([name]) => existsSync(`${root}/services/${name}/src/server.ts`))
    .map(([name, offset]) => ({ name, offset }));
}

/** `IDENTITY_URL`, `RESEARCH_EXPORT_URL` ... */
export const urlVariable = (name) => `${name.toUpperCase().replaceAll('-', '_')}_URL`;
