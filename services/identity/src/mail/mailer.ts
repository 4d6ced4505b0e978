import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail; resolves once the SMTP server has accepted it. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Mail over SMTP (nodemailer) when SMTP_URL is set. Without it nothing is sent: on a
 * development machine the message is written to the log so the link can be copied from
 * there; in production (`logContents` false) a reset link in a log would let anyone who
 * reads the logs take over the account, so only the failure is logged.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger; logContents: boolean }): Mailer {
  const log = options.logger.child({ component: 'mailer' });
  if (!options.smtpUrl) {
    if (!options.logContents) {
      log.error('SMTP_URL is not set: password-reset e-mails cannot be sent');
      return {
        async send(mail) {
          log.error({ subject: mail.subject }, 'E-mail NOT sent: SMTP_URL is not set');
        },
      };
    }
    log.info('SMTP_URL is not set: e-mails are written to this log instead of being sent');
    return {
      async send(mail) {
        log.info(
          { to: mail.to, subject: mail.subject },
          `E-mail NOT sent (SMTP_URL is not set). To: ${mail.to} | Subject: ${mail.subject}\n${mail.text}`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(
    { url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
    { from: options.from },
  );
  return {
    async send(mail) {
      await transport.sendMail(mail);
    },
  };
}
