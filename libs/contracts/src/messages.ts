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
