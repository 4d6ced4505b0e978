import { randomInt } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so an id read aloud or copied by hand survives. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A research id, e.g. `SW-7K2M9QXD`: eight characters drawn at random (40 bits), never
 * derived from her user id or e-mail, so a research file cannot be joined back to her
 * account without this service's table. Drawn once, at enrolment, and kept for good.
 */
export function randomResearchId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return `SW-${id}`;
}

export const RESEARCH_ID_PATTERN = /^SW-[0-9A-HJKMNP-TV-Z]{8}$/;
