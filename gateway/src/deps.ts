import type { Bus, Subscription } from '@sleepweave/bus';
import type { Logger } from 'pino';
import type { ThreadHub } from './community-live.ts';
import type { GatewayConfig } from './config.ts';
import type { ServiceProxyOptions } from './proxy.ts';
import type { RevocationList } from './revocations.ts';
import type { ServiceName } from './routing.ts';
import type { SessionResolver } from './session.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  bus: Bus;
  sessions: SessionResolver;
  revocations: RevocationList;
  /** Base URL of each service routed to (see upstreamsOf). */
  upstreams: Partial<Record<ServiceName, string>>;
  /** Live community threads over /ws (absent: join_thread answers an error). */
  threads?: ThreadHub;
  /** The bus watches this process depends on, reported by /health (degraded unless following). */
  watches?: Record<string, Pick<Subscription, 'state'>>;
  /** The proxy's bounds (PROXY_DEFAULTS unless given: tests shorten them). */
  proxy?: ServiceProxyOptions;
}
