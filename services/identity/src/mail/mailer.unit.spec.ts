import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

describe('createMailer without SMTP_URL', () => {
  it('writes the whole message, link included, to the log instead of sending it', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const mailer = createMailer({ smtpUrl: undefined, from: 'Sleepweave <no-reply@localhost>', logger: pino({ level: 'info' }, sink) });
    await mailer.send({ to: 'maya@example.com', subject: 'Reset your Sleepweave password', text: 'Open http://localhost:3000/reset-password?token=abc', html: '' });
    const logged = lines.map((line) => JSON.parse(line) as { msg: string });
    expect(logged[0]!.msg).toContain('SMTP_URL is not set');
    expect(logged[1]!.msg).toContain('E-mail NOT sent (SMTP_URL is not set). To: maya@example.com');
    expect(logged[1]!.msg).toContain('http://localhost:3000/reset-password?token=abc');
  });
});
