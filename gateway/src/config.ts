import { fileURLToPath } from 'node:url';
import { BaseConfig, loadConfig } from '@sleepweave/service-kit';
import { z } from 'zod';
import type { ServiceName } from './routing.ts';

export const GatewayConfig = BaseConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** localhost: both 127.0.0.1 and ::1 (use 0.0.0.0 in a container). */
  HOST: z.string().default('localhost'),
  /** The web build served at / (SPA). */
  WEB_DIST: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
  /** Where each service answers; a service without a URL is not routed (identity has a default). */
  STUDY_URL: z.string().url().optional(),
  JOURNAL_URL: z.string().url().optional(),
  COMMUNITY_URL: z.string().url().optional(),
  LIBRARY_URL: z.string().url().optional(),
  RESEARCH_EXPORT_URL: z.string().url().optional(),
  /**
   * Behind a TLS terminator or load balancer: which X-Forwarded-For hops to trust, so
   * rate limits see the client's address, not the proxy's. `false` (default: nothing in
   * front), a hop count (`1`), or addresses/CIDRs (`10.0.0.0/8,127.0.0.1`). Not `true`:
   * trusting every hop takes the address the client wrote into the header herself, and
   * whoever rotates it escapes the limits on sign-in, registration and sockets.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx): false | number | string[] => {
      const v = value.trim();
      if (v === '' || v === 'false') return false;
      if (v === 'true') {
        ctx.addIssue({
          code: 'custom',
          message:
            'TRUST_PROXY=true would trust the address a client writes into X-Forwarded-For herself: give the number of proxies in front (e.g. 1) or their addresses',
        });
        return z.NEVER;
      }
      if (/^\d+$/.test(v)) return Number(v);
      return v
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    }),
  /** Open WebSockets a session may hold (the app opens one per open thread screen). */
  WS_MAX_SOCKETS_PER_SESSION: z.coerce.number().int().min(1).default(10),
  /**
   * Open WebSockets of one user, her sessions together (a phone and a laptop, tabs on each):
   * she may hold 100 sessions, which at 10 sockets each came to a thousand.
   */
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).default(20),
  /** Open WebSockets one client address may hold (several people behind one NAT; IPv6 by its /64). */
  WS_MAX_SOCKETS_PER_IP: z.coerce.number().int().min(1).default(50),
  /** The gateway pings each socket this often; one that did not answer the last ping is closed. */
  WS_HEARTBEAT_MS: z.coerce.number().int().min(100).default(30_000),
  /** A socket that follows no thread for this long is closed. */
  WS_IDLE_MS: z.coerce.number().int().min(100).default(120_000),
  /** How long a revoked session id is remembered: at least the access-token lifetime. */
  REVOCATION_MEMORY_SECONDS: z.coerce.number().int().min(60).default(3600),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;

export const readGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(GatewayConfig, env);

/** The services this gateway routes to: those with a URL. */
export function upstreamsOf(config: GatewayConfig): Partial<Record<ServiceName, string>> {
  const urls: Record<ServiceName, string | undefined> = {
    identity: config.IDENTITY_URL,
    study: config.STUDY_URL,
    journal: config.JOURNAL_URL,
    community: config.COMMUNITY_URL,
    library: config.LIBRARY_URL,
    'research-export': config.RESEARCH_EXPORT_URL,
  };
  return Object.fromEntries(Object.entries(urls).filter(([, url]) => url)) as Partial<Record<ServiceName, string>>;
}
