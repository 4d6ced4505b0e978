import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { resetLinkIn, type CaughtMail } from '../../../services/identity/src/test/mail-catcher.ts';

async function mailsTo(email: string): Promise<CaughtMail[]> {
  const dir = process.env.E2E_MAIL_DIR!;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort();
  const mails = await Promise.all(files.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as CaughtMail));
  return mails.filter((mail) => mail.to.includes(email.toLowerCase()));
}

/** The reset link in the newest e-mail the SMTP catcher received for `email`. */
export async function waitForResetLink(email: string): Promise<string> {
  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 15_000, message: `an e-mail to ${email}` }).toBeGreaterThan(0);
  return resetLinkIn((await mailsTo(email)).at(-1)!);
}
