import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  return { lines, logger: pino({ level: 'trace' }, sink) };
}

const resetMail = {
  to: 'maya@example.com',
  subject: 'Reset your Sleepweave password',
  text: 'Open http://localhost:3000/reset-password?token=abc',
  html: '',
};

describe('createMailer without SMTP_URL', () => {
  it('on a development machine writes the message to a file of the outbox and only names the file in the log', async () => {
    const { lines, logger } = capture();
    const outbox = join(await mkdtemp(join(tmpdir(), 'sw-outbox-')), 'mail');
    const mailer = createMailer({ smtpUrl: undefined, from: 'Sleepweave <no-reply@localhost>', logger, outbox });
    expect(await mailer.send(resetMail)).toBe(false); // not sent
    const [file] = await readdir(outbox);
    const written = await readFile(join(outbox, file!), 'utf8');
    expect(written).toContain('To: maya@example.com');
    expect(written).toContain('http://localhost:3000/reset-password?token=abc');
    expect(lines.join('')).toContain(`written to ${join(outbox, file!)}`);
    expect(lines.join('')).not.toContain('token=abc');
    // her e-mail is in the file, not in its name (which the log shows)
    expect(file).not.toContain('maya');
    expect(lines.join('')).not.toContain('maya@example.com');
  });

  it('in production never writes the link anywhere', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ smtpUrl: undefined, from: 'Sleepweave <no-reply@localhost>', logger, outbox: null });
    expect(await mailer.send(resetMail)).toBe(false);
    expect(lines.join('')).not.toContain('token=abc');
    expect(lines.join('')).not.toContain('maya@example.com');
    expect(lines.join('')).toContain('SMTP_URL is not set');
  });
});
