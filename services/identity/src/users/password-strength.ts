import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { badRequest } from '@sleepweave/service-kit';

/**
 * How a new password is judged, where one is set (sign-up, reset, change): on the server
 * only, as the lists are too large for the web app, with zxcvbn-ts (the dictionaries of
 * @zxcvbn-ts/language-common and -en, keyboard patterns, repeats, sequences, dates). They
 * load with the first new password, not at every start, and are let go after
 * {@link KEPT_IDLE_MS} without one: they hold about 40 MB of heap (measured: the process's
 * RSS grew by about 100 MB with them, 48 MB with the common list alone).
 *
 * - One of the about 49,000 most common passwords, compared without regard to case:
 *   {@link COMMON_PASSWORD_MESSAGE}.
 * - Otherwise, one zxcvbn scores below {@link MIN_SCORE} (fewer than a million guesses): her
 *   e-mail, name or date of birth, the study's own words ("sleepweave42"), a repeat
 *   ("aaaaaaaa") or a sequence ("abcabcabc"): {@link WEAK_PASSWORD_MESSAGE}, after zxcvbn's
 *   own warning when it gives one. (Only the length was checked, and an outside tester set
 *   "aaaaaaaa" and her own e-mail address.)
 */
export const MIN_SCORE = 2;
/** The study's own words, which a password made of them is guessed with (judged as her own details are). */
const STUDY_WORDS = ['sleepweave', 'sleep', 'weave', 'linen', 'cotton', 'polyester', 'pyjamas', 'menopause', 'study'];
/** Only the start of a long password is judged (zxcvbn's time grows with the length; past this any is strong). */
const JUDGED_LENGTH = 100;

/** How long the lists are kept after the last new password. */
export const KEPT_IDLE_MS = 10 * 60_000;

interface Judge {
  common: ReadonlySet<string>;
  zxcvbn: ZxcvbnFactory;
}
let judge: Promise<Judge> | null = null;
let letGo: ReturnType<typeof setTimeout> | undefined;

async function load(): Promise<Judge> {
  const [{ ZxcvbnFactory }, common, en] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  return {
    common: new Set(common.dictionary['passwords-common'].map((p) => p.toLowerCase())),
    zxcvbn: new ZxcvbnFactory({
      // zxcvbn's English, but for the one said of her own details, in the app's words
      translations: { ...en.translations, warnings: { ...en.translations.warnings, userInputs: OWN_DETAILS_WARNING } },
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      maxLength: JUDGED_LENGTH,
    }),
  };
}

function loaded(): Promise<Judge> {
  clearTimeout(letGo);
  letGo = setTimeout(() => (judge = null), KEPT_IDLE_MS).unref();
  return (judge ??= load().catch((err: unknown) => {
    judge = null;
    throw err;
  }));
}

/** zxcvbn's warning of a password made of her own details ("There should not be any personal or page related data."). */
export const OWN_DETAILS_WARNING = 'It is made of your name, e-mail address, date of birth or the study’s own words.';

export const COMMON_PASSWORD_MESSAGE = 'This password is too common and easy to guess. Please choose another.';
export const WEAK_PASSWORD_MESSAGE =
  'This password is too easy to guess. Please choose another: a few words that do not belong together make a strong one.';

/** What she is known by, which her password must not be made of. */
export interface AboutHer {
  email: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
}

/** What her stored account says of her. */
export const aboutHer = (row: { email: string; first_name: string; last_name: string; date_of_birth: string | null }): AboutHer => ({
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  dateOfBirth: row.date_of_birth,
});

/** Why `password` is too easy to guess, or null when it is not. */
export async function weakPasswordReason(password: string, about: AboutHer): Promise<string | null> {
  const { common, zxcvbn } = await loaded();
  if (common.has(password.toLowerCase())) return COMMON_PASSWORD_MESSAGE;
  const year = about.dateOfBirth?.slice(0, 4);
  const inputs = [
    about.email,
    about.email.split('@')[0]!,
    about.firstName,
    about.lastName,
    about.firstName && about.lastName ? `${about.firstName}${about.lastName}` : null,
    about.dateOfBirth,
    year,
    year?.slice(2),
    ...STUDY_WORDS,
  ].filter((input): input is string => Boolean(input));
  const result = zxcvbn.check(password.slice(0, JUDGED_LENGTH), inputs);
  if (result.score >= MIN_SCORE) return null;
  const warning = result.feedback.warning;
  return warning ? `${warning} ${WEAK_PASSWORD_MESSAGE}` : WEAK_PASSWORD_MESSAGE;
}

/** 400 naming `field` when a new password is too easy to guess. */
export async function refuseWeakPassword(password: string, field: string, about: AboutHer): Promise<void> {
  const reason = await weakPasswordReason(password, about);
  if (reason) throw badRequest(`${field}: ${reason}`);
}
