import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as it arrived over SMTP. */
export interface CaughtMail {
  from: string;
  to: string[];
  /** The message source (headers and MIME parts, transfer-encoded). */
  raw: string;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:<port> (no TLS, no auth), for SMTP_URL. */
  url: string;
  port: number;
  mails: CaughtMail[];
  /** The first message to `to` that arrives (or has arrived). */
  waitForMail(to: string, timeoutMs?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a local port that keeps what it receives: integration and e2e
 * tests send through nodemailer exactly as production does and read the message here.
 */
export async function startMailCatcher(options: { port?: number; onMail?: (mail: CaughtMail) => void } = {}): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: CaughtMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        mails.push(mail);
        options.onMail?.(mail);
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    waitForMail(to, timeoutMs = 5_000) {
      const find = () => mails.find((mail) => mail.to.includes(to.toLowerCase()));
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return;
          cleanup();
          resolve(mail);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no e-mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable (soft line breaks, =XX bytes) so links read as sent. */
export function decodeQuotedPrintable(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The reset link in a caught message (`<APP_URL>/reset-password?token=...`). */
export function resetLinkIn(mail: CaughtMail): string {
  const match = decodeQuotedPrintable(mail.raw).match(/https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9_-]+/);
  if (!match) throw new Error(`no reset link in the e-mail:\n${mail.raw}`);
  return match[0];
}
