/**
 * Words of the API that the web app's shell needs before anything else loads. No zod here:
 * the web app imports this module on its own (`@sleepweave/contracts/messages`), so its
 * first paint does not wait for every schema.
 */

/**
 * The answer (503) while a part of Sleepweave is down or restarting: a service, its
 * database, or identity during a session renewal. The web app shows it as is.
 */
export const TEMPORARILY_UNAVAILABLE_MESSAGE = 'Sleepweave is temporarily unavailable. Please try again in a moment.';

/**
 * The answer (504) to a change whose service did not answer in time (a process hung): it
 * may still be made once that service goes on, so she is not told it failed. The web app
 * says the same of a change whose answer it waited for in vain. Sent again as it was, a
 * change is not made twice (Idempotency-Key; a night saved already switches to edit mode).
 */
export const NOT_CONFIRMED_MESSAGE = 'Sleepweave did not answer in time, so this may have been saved. Please check before you try again.';

/** The gateway's 401 to a tab opened for another user than the browser's session's (SIGNED_IN_USER_HEADER). */
export const SIGNED_IN_AS_SOMEONE_ELSE = 'Someone else has signed in on this browser since this page was opened.';

/**
 * The user a tab of the app was opened for, sent with each of its requests (GET /api/user
 * aside: it asks who that is). The gateway answers 401 with SIGNED_IN_AS_SOMEONE_ELSE when the
 * browser's session is another user's: she signed out in another tab and someone else signed
 * in there, and this tab's form, written by the first, would have been saved as the second's.
 */
export const SIGNED_IN_USER_HEADER = 'x-signed-in-user';
