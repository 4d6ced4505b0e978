import { setTimeout as sleep } from 'node:timers/promises';
import { findDirectoryUser, HttpError, type DirectoryUser, type Sql } from '@sleepweave/service-kit';

/** How long a request waits for her profile to arrive before answering 503. */
export const PROFILE_WAIT_MS = 3_000;

/**
 * Her profile as this service knows it (timezone for the study day). Right after sign-up
 * the registration event may still be on its way (it usually takes well under a second):
 * wait a little for it, then answer 503 rather than guess a timezone.
 */
export async function requireParticipant(sql: Sql, userId: string, waitMs = PROFILE_WAIT_MS): Promise<DirectoryUser> {
  const deadline = Date.now() + waitMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 400)) {
    const user = await findDirectoryUser(sql, userId);
    if (user) return user;
    if (Date.now() + delay > deadline) break;
    await sleep(delay);
  }
  throw new HttpError(503, 'unavailable', 'Your profile is still being set up. Please try again in a moment.');
}
