import { dictionary } from '@zxcvbn-ts/language-common';
import { badRequest } from '@sleepweave/service-kit';

/**
 * The most common passwords (about 49,000, most common first, from the password lists
 * behind zxcvbn-ts: @zxcvbn-ts/language-common), compared without regard to case. Checked
 * on the server only, where a new password is set: the list is too large for the web app.
 */
let common: ReadonlySet<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common and easy to guess. Please choose another.';

/** 400 naming `field` when a new password is one of the most common ones. */
export function refuseCommonPassword(password: string, field: string): void {
  if (isCommonPassword(password)) throw badRequest(`${field}: ${COMMON_PASSWORD_MESSAGE}`);
}
