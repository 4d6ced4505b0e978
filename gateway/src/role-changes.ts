import type { Bus, Watch } from '@sleepweave/bus';
import { isEventOfType, type EventEnvelope, type Role } from '@sleepweave/contracts';
import type { Logger } from 'pino';

/**
 * Users whose role changed recently (an admin granted or revoked the admin role), learned
 * from `identity.user.role_granted` on the bus by every gateway process. An access token
 * that carries another role than her current one was signed before the change: it is not
 * used; the session is renewed from the refresh cookie instead, and identity signs the new
 * token with the role she has now. So a revoked admin loses her rights within a second of
 * the revoke (not at her token's expiry), and a new admin gets them as promptly, without
 * being signed out. Remembered for `memoryMs` (at least the access-token lifetime: older
 * tokens have expired anyway).
 */
export class RoleChanges {
  private readonly roles = new Map<string, { role: Role; until: number }>();

  constructor(private readonly memoryMs: number) {}

  changed(userId: string, role: Role, now = Date.now()): void {
    this.roles.set(userId, { role, until: now + this.memoryMs });
  }

  /** True when her role changed to another than `role` (the token's) within memory. */
  isStale(userId: string, role: Role, now = Date.now()): boolean {
    const known = this.roles.get(userId);
    if (!known) return false;
    if (known.until < now) {
      this.roles.delete(userId);
      return false;
    }
    return known.role !== role;
  }

  prune(now = Date.now()): void {
    for (const [userId, { until }] of this.roles) if (until < now) this.roles.delete(userId);
  }
}

/** Replays the last `memoryMs` of role changes, then follows new ones. */
export async function followRoleChanges(bus: Bus, list: RoleChanges, memoryMs: number, logger: Logger): Promise<Watch> {
  const timer = setInterval(() => list.prune(), 60_000);
  timer.unref();
  const subscription = await bus.watch({
    stream: 'IDENTITY',
    types: ['identity.user.role_granted'],
    since: new Date(Date.now() - memoryMs),
    handler: (envelope: EventEnvelope) => {
      if (!isEventOfType(envelope, 'identity.user.role_granted')) return;
      const { userId, role } = envelope.data;
      const at = Date.parse(envelope.time);
      list.changed(userId, role, Number.isNaN(at) ? Date.now() : Math.min(at, Date.now()));
      logger.debug({ userId, role }, 'role changed');
    },
  });
  return {
    state: () => subscription.state(),
    caughtUp: subscription.caughtUp,
    async stop() {
      clearInterval(timer);
      await subscription.stop();
    },
  };
}
