import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** npm run admin:grant against this e2e run's databases and bus, as the README says. */
export function grantAdmin(email: string) {
  const name = process.env.E2E_NAME ?? 'e2e';
  const output = execFileSync('npm', ['run', '--silent', 'admin:grant', '--', email], {
    cwd: repoRoot,
    env: { ...process.env, DB_PREFIX: `sleepweave_${name}_`, BUS_PREFIX: name },
    encoding: 'utf8',
  });
  expect(output).toContain(`${email} is now an admin.`);
}
