/**
 * How long after a change made through identity (a role, a deletion) the admin lists are
 * read again: the change reaches the dashboard's read model through identity's event, a
 * moment later.
 */
export const READ_MODEL_DELAY_MS = 1_500;
