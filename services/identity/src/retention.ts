import { startUpkeep, type BackgroundWorker } from '@sleepweave/service-kit';
import type { IdentityContext } from './context.ts';
import { removeExpiredResetLinks } from './password-reset/retention.ts';
import { removeEndedSessions } from './sessions/retention.ts';

/**
 * What identity keeps only a day past its end, removed in the background every `everyMs`
 * (a quarter of an hour) on each instance: ended sessions (sessions/retention.ts) and
 * expired reset links (password-reset/retention.ts).
 */
export function startRetention(ctx: IdentityContext, options: { everyMs?: number } = {}): BackgroundWorker {
  return startUpkeep(
    ctx.logger,
    [
      { name: 'removing ended sessions', run: async (now) => ({ removed: await removeEndedSessions(ctx, now) }) },
      { name: 'removing expired reset links', run: async (now) => ({ removed: await removeExpiredResetLinks(ctx, now) }) },
    ],
    { component: 'retention', everyMs: options.everyMs ?? 15 * 60_000 },
  );
}
