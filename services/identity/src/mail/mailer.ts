import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends mail; resolves once the SMTP server has accepted it (true), or, without SMTP_URL,
 * once it was written to the outbox or its loss logged (false: nothing was sent).
 */
export interface Mailer {
  send(mail: Mail): Promise<boolean>;
}

/**
 * Mail over SMTP (nodemailer) when SMTP_URL is set. Without it nothing is sent: on a
 * development machine (`outbox` set) the message is written to a file there, and the log
 * names the file, never its contents (a reset link in a log would let anyone who reads the
 * logs take over the account); in production only the failure is logged.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger; outbox: string | null }): Mailer {
  const log = options.logger.child({ component: 'mailer' });
  if (!options.smtpUrl) {
    const { outbox } = options;
    if (!outbox) {
      log.error('SMTP_URL is not set: password-reset e-mails cannot be sent');
      return {
        async send(mail) {
          log.error({ subject: mail.subject }, 'E-mail NOT sent: SMTP_URL is not set');
          return false;
        },
      };
    }
    log.info({ outbox }, 'SMTP_URL is not set: e-mails are written to files in the outbox instead of being sent');
    return {
      async send(mail) {
        await mkdir(outbox, { recursive: true, mode: 0o700 });
        // named by time, not by her e-mail: the log names the file (find hers with grep "To: ...")
        const file = join(outbox, `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.txt`);
        await writeFile(file, `From: ${options.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`, { mode: 0o600 });
        log.info({ file, subject: mail.subject }, `E-mail NOT sent (SMTP_URL is not set); written to ${file}`);
        return false;
      },
    };
  }
  // nodemailer loads with the first mail (a password reset), not at every start.
  let transport: Promise<Transporter> | null = null;
  const smtpUrl = options.smtpUrl;
  const connect = async () => {
    const { default: nodemailer } = await import('nodemailer');
    return nodemailer.createTransport(
      { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
      { from: options.from },
    );
  };
  return {
    async send(mail) {
      transport ??= connect().catch((err: unknown) => {
        transport = null;
        throw err;
      });
      await (await transport).sendMail(mail);
      return true;
    },
  };
}
