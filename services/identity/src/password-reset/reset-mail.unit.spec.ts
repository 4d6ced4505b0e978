import { describe, expect, it } from 'vitest';
import { resetLink, resetPasswordMail } from './reset-mail.ts';

describe('resetLink', () => {
  it('is <APP_URL>/reset-password?token=..., with or without a trailing slash or a base path', () => {
    expect(resetLink('http://localhost:3000', 'abc-_1')).toBe('http://localhost:3000/reset-password?token=abc-_1');
    expect(resetLink('https://sleepweave.example/', 'abc')).toBe('https://sleepweave.example/reset-password?token=abc');
    expect(resetLink('https://example.org/sleep', 'abc')).toBe('https://example.org/sleep/reset-password?token=abc');
  });
});

describe('resetPasswordMail', () => {
  const mail = resetPasswordMail({
    to: 'maya@example.com',
    link: 'http://localhost:3000/reset-password?token=abc',
    validMinutes: 60,
  });

  it('greets her, carries the link in both parts and says how long it works', () => {
    expect(mail.subject).toBe('Reset your Sleepweave password');
    expect(mail.text.startsWith('Hello,\n')).toBe(true);
    expect(mail.text).toContain('\nhttp://localhost:3000/reset-password?token=abc\n');
    expect(mail.text).toContain('within 60 minutes');
    expect(mail.html).toContain('href="http://localhost:3000/reset-password?token=abc"');
  });

  it('greets her without a name in the HTML too', () => {
    expect(mail.html).toContain('>Hello,</p>');
  });
});
