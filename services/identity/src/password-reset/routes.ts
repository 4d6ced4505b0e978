import { setTimeout as sleep } from 'node:timers/promises';
import {
  ForgotPasswordRequest,
  MessageResponse,
  ResetPasswordRequest,
  ValidateResetTokenQuery,
  ValidateResetTokenResponse,
} from '@sleepweave/contracts';
import { HttpError, requestMetadata, type ServiceApp } from '@sleepweave/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityContext } from '../context.ts';
import type { Mail } from '../mail/mailer.ts';
import { clearSessionCookies } from '../sessions/cookies.ts';
import { hashToken } from '../sessions/tokens.ts';
import { RESET_TOKEN_TTL_MINUTES } from '../users/business-logic.ts';
import { aboutHer, refuseWeakPassword } from '../users/password-strength.ts';
import { hashPassword } from '../users/passwords.ts';
import { findUserByEmail, findUserById } from '../users/queries.ts';
import { invalidResetToken, requestPasswordReset, resetPassword } from './commands.ts';
import { resetLink, resetPasswordMail } from './reset-mail.ts';
import { allowResetRequest, findResetToken, isUsable, newResetToken } from './reset-tokens.ts';

/** The one answer to every accepted forgot-password request, registered e-mail or not. */
export const FORGOT_PASSWORD_MESSAGE =
  "If an account exists for that email, we've sent a link to reset your password. Please check your inbox (and your spam folder).";
export const PASSWORD_RESET_DONE = 'Your password has been reset. You can now sign in with your new password.';
const TOO_MANY_FROM_HERE = 'Too many password reset requests. Please wait a few minutes and try again.';

/** Sends once the current answer is on its way; a failure is logged (never with the link). */
function sendLater(ctx: IdentityContext, mail: Mail, log: FastifyBaseLogger): void {
  setImmediate(() => {
    ctx.mailer.send(mail).then(
      // (not sent without SMTP_URL: the mailer said where it went instead)
      (sent) => sent && log.info('password reset e-mail sent'),
      (err: Error) => log.error({ err: { message: err.message } }, 'password reset e-mail failed'),
    );
  });
}

export async function passwordResetRoutes(app: ServiceApp, ctx: IdentityContext): Promise<void> {
  const { config } = ctx;
  const windowMs = config.PASSWORD_RESET_WINDOW_MINUTES * 60_000;
  const perIp = (max: number) => ({
    rateLimit: { max, timeWindow: windowMs, errorResponseBuilder: () => new HttpError(429, 'too_many_requests', TOO_MANY_FROM_HERE) },
  });

  /**
   * Same status, same body, about the same time whether the e-mail is registered or not:
   * the answer waits for FORGOT_PASSWORD_MIN_RESPONSE_MS in every case, and the e-mail
   * goes out after the answer (the token is in the database by then).
   */
  app.post(
    '/api/forgot-password',
    { schema: { body: ForgotPasswordRequest, response: { 200: MessageResponse } }, config: perIp(config.PASSWORD_RESET_RATE_LIMIT_PER_IP) },
    async (request) => {
      const answerAt = Date.now() + config.FORGOT_PASSWORD_MIN_RESPONSE_MS;
      let mail: Mail | null = null;
      try {
        const { email } = request.body;
        const now = ctx.clock();
        const allowed = await allowResetRequest(
          ctx.sql,
          email,
          config.PASSWORD_RESET_REQUESTS_PER_EMAIL,
          config.PASSWORD_RESET_WINDOW_MINUTES,
          now,
        );
        // Past the limit she is answered alike, and no more mail goes: a 429 here let anyone
        // keep her from asking for a link by asking for hers first (the links sent are hers).
        const user = allowed ? await findUserByEmail(ctx.sql, email) : undefined;
        if (user) {
          const token = newResetToken();
          const metadata = { ...requestMetadata(request), userId: user.id };
          // (false: deleted a moment ago; the same answer as for any unknown e-mail)
          if (await requestPasswordReset(ctx, { userId: user.id, tokenHash: hashToken(token), now }, metadata)) {
            mail = resetPasswordMail({
              to: user.email,
              link: resetLink(config.APP_URL, token),
              validMinutes: RESET_TOKEN_TTL_MINUTES,
            });
          }
        }
        return { message: FORGOT_PASSWORD_MESSAGE };
      } finally {
        const wait = answerAt - Date.now();
        if (wait > 0) await sleep(wait);
        // After the answer has gone out: an SMTP round trip (or even opening the connection)
        // would make a registered e-mail measurably slower.
        if (mail) sendLater(ctx, mail, request.log);
      }
    },
  );

  app.get(
    '/api/validate-reset-token',
    { schema: { querystring: ValidateResetTokenQuery, response: { 200: ValidateResetTokenResponse } }, config: perIp(60) },
    async (request) => {
      const row = await findResetToken(ctx.sql, hashToken(request.query.token));
      if (!isUsable(row, ctx.clock())) throw invalidResetToken();
      return { valid: true as const, message: 'Reset token is valid' };
    },
  );

  /** Sets the new password, uses the token up and ends every session of hers, in one transaction. */
  app.post(
    '/api/reset-password',
    { schema: { body: ResetPasswordRequest, response: { 200: MessageResponse } }, config: perIp(30) },
    async (request, reply) => {
      const { token, password } = request.body;
      const now = ctx.clock();
      const tokenHash = hashToken(token);
      const row = await findResetToken(ctx.sql, tokenHash);
      if (!isUsable(row, now)) throw invalidResetToken();
      const userId = row.user_id;
      const her = await findUserById(ctx.sql, userId);
      if (her) await refuseWeakPassword(password, 'password', aboutHer(her));
      const passwordHash = await hashPassword(password);
      await resetPassword(ctx, { userId, tokenId: row.id, tokenHash, passwordHash, now }, { ...requestMetadata(request), userId });
      clearSessionCookies(reply, ctx);
      return { message: PASSWORD_RESET_DONE };
    },
  );
}
