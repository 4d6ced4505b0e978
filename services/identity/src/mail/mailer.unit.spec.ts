import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

describe('createMailer without SMTP_URL', () => {
  it('on a development machine writes the whole message, link included, to the log', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ smtpUrl: undefined, from: 'Sleepweave <no-reply@localhost>', logger, logContents: true });
    await mailer.send({
      to: 'maya@example.com',
      subject: 'Reset your Sleepweave password',
      text: 'Open http://localhost:3000/reset-password?token=abc',
      html: '',
    });
    const logged = lines.map((line) => JSON.parse(line) as { msg: string });
    expect(logged[0]!.msg).toContain('SMTP_URL is not set');
    expect(logged[1]!.msg).toContain('E-mail NOT sent (SMTP_URL is not set). To: maya@example.com');
    expect(logged[1]!.msg).toContain('http://localhost:3000/reset-password?token=abc');
  });

  it('in production never writes the link to the log', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ smtpUrl: undefined, from: 'Sleepweave <no-reply@localhost>', logger, logContents: false });
    await mailer.send({
      to: 'maya@example.com',
      subject: 'Reset your Sleepweave password',
      text: 'Open http://localhost:3000/reset-password?token=abc',
      html: '',
    });
    expect(lines.join('')).not.toContain('token=abc');
    expect(lines.join('')).not.toContain('maya@example.com');
    expect(lines.join('')).toContain('SMTP_URL is not set');
  });
});
