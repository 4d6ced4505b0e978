import type { Mail } from '../mail/mailer.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The link in the e-mail: `<APP_URL>/reset-password?token=...`. */
export function resetLink(appUrl: string, token: string): string {
  const url = new URL('reset-password', appUrl.endsWith('/') ? appUrl : `${appUrl}/`);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * A friendly plain-text e-mail with a simple HTML twin. It greets her without her name: an
 * address is not verified, so whoever registered it chose the name, and a name in the
 * greeting would be words of theirs in a genuine Sleepweave e-mail to her.
 */
export function resetPasswordMail(options: { to: string; link: string; validMinutes: number }): Mail {
  const { to, link, validMinutes } = options;
  const subject = 'Reset your Sleepweave password';
  const text = [
    'Hello,',
    '',
    'We received a request to reset the password of your Sleepweave account.',
    `To choose a new password, open this link (it works once, within ${validMinutes} minutes):`,
    '',
    link,
    '',
    "If you didn't ask for this, you can safely ignore this e-mail: your password stays as it is.",
    '',
    'Rest well,',
    'The Sleepweave team',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#fcf9f4;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b1836;">
  <div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid #e8e6f6;border-radius:20px;padding:32px;">
    <p style="margin:0 0 8px;font-size:20px;font-weight:600;color:#2b2650;">Sleepweave</p>
    <p style="font-size:16px;line-height:1.6;">Hello,</p>
    <p style="font-size:16px;line-height:1.6;">We received a request to reset the password of your Sleepweave account. To choose a new password, use the button below. The link works once, within ${validMinutes} minutes.</p>
    <p style="margin:28px 0;"><a href="${escapeHtml(link)}" style="display:inline-block;background:#4a3e8a;color:#ffffff;text-decoration:none;font-weight:600;font-size:16px;padding:14px 24px;border-radius:12px;">Choose a new password</a></p>
    <p style="font-size:14px;line-height:1.6;color:#3b336c;">If the button doesn't work, copy this link into your browser:<br><a href="${escapeHtml(link)}" style="color:#4a3e8a;word-break:break-all;">${escapeHtml(link)}</a></p>
    <p style="font-size:14px;line-height:1.6;color:#3b336c;">If you didn't ask for this, you can safely ignore this e-mail: your password stays as it is.</p>
    <p style="font-size:16px;line-height:1.6;margin-bottom:0;">Rest well,<br>The Sleepweave team</p>
  </div>
</body>
</html>`;
  return { to, subject, text, html };
}
