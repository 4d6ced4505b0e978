import { badRequest } from '@sleepweave/service-kit';

/**
 * The most common passwords (about 49,000, most common first, from the password lists
 * behind zxcvbn-ts: @zxcvbn-ts/language-common), compared without regard to case. Checked
 * on the server only, where a new password is set: the list is too large for the web app.
 * It loads with the first new password, not at every start (a few MB the process would
 * otherwise hold from its start).
 */
let common: Promise<ReadonlySet<string>> | null = null;

async function load(): Promise<ReadonlySet<string>> {
  const { dictionary } = await import('@zxcvbn-ts/language-common');
  return new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
}

export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= load().catch((err: unknown) => {
    common = null;
    throw err;
  });
  return (await common).has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common and easy to guess. Please choose another.';

/** 400 naming `field` when a new password is one of the most common ones. */
export async function refuseCommonPassword(password: string, field: string): Promise<void> {
  if (await isCommonPassword(password)) throw badRequest(`${field}: ${COMMON_PASSWORD_MESSAGE}`);
}
