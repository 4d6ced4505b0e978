import type { Bus, Watch } from '@sleepweave/bus';
import { isEventOfType, type EventEnvelope } from '@sleepweave/contracts';
import type { Logger } from 'pino';

/**
 * Session ids revoked recently (logout, password reset, deletion), learned from
 * `identity.session.revoked` on the bus by every gateway process. An access token
 * whose session is here is refused even though its signature and expiry are fine.
 */
export class RevocationList {
  private readonly revoked = new Map<string, number>();
  private readonly listeners = new Set<(sessionId: string) => void>();

  constructor(private readonly memoryMs: number) {}

  revoke(sessionId: string, now = Date.now()): void {
    this.revoked.set(sessionId, now + this.memoryMs);
    for (const listener of this.listeners) listener(sessionId);
  }

  isRevoked(sessionId: string, now = Date.now()): boolean {
    const until = this.revoked.get(sessionId);
    if (until === undefined) return false;
    if (until < now) {
      this.revoked.delete(sessionId);
      return false;
    }
    return true;
  }

  /** Called on every revocation (the WebSocket hub closes that session's sockets). */
  onRevoke(listener: (sessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  prune(now = Date.now()): void {
    for (const [sessionId, until] of this.revoked) if (until < now) this.revoked.delete(sessionId);
  }
}

/** Replays the last `memoryMs` of revocations, then follows new ones. */
export async function followRevocations(bus: Bus, list: RevocationList, memoryMs: number, logger: Logger): Promise<Watch> {
  const timer = setInterval(() => list.prune(), 60_000);
  timer.unref();
  const subscription = await bus.watch({
    stream: 'IDENTITY',
    types: ['identity.session.revoked'],
    since: new Date(Date.now() - memoryMs),
    handler: (envelope: EventEnvelope) => {
      if (!isEventOfType(envelope, 'identity.session.revoked')) return;
      const { sessionId } = envelope.data;
      list.revoke(sessionId);
      logger.debug({ sessionId }, 'session revoked');
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
