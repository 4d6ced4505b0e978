import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startMailCatcher } from '../../services/identity/src/test/mail-catcher.ts';

/**
 * Playwright globalSetup: a real SMTP server on E2E_SMTP_PORT (identity's SMTP_URL points
 * here, see playwright.config.ts). Each message that arrives is written to E2E_MAIL_DIR as
 * JSON, where the specs read it (support/mail.ts).
 */
export default async function startMail(): Promise<() => Promise<void>> {
  const dir = process.env.E2E_MAIL_DIR!;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  let count = 0;
  const catcher = await startMailCatcher({
    port: Number(process.env.E2E_SMTP_PORT),
    onMail: (mail) => void writeFile(join(dir, `${Date.now()}-${count++}.json`), JSON.stringify(mail)),
  });
  return () => catcher.close();
}
