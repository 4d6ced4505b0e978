import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { hash } from '@node-rs/argon2';
import {
  ForgotPasswordRequest,
  INVALID_RESET_TOKEN,
  MessageResponse,
  ResetPasswordRequest,
  ValidateResetTokenQuery,
  ValidateResetTokenResponse,
} from '@sleepweave/contracts';
import { ConcurrencyError } from '@sleepweave/event-store';
import { HttpError, tooManyRequests, type ServiceApp } from '@sleepweave/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityContext } from '../context.ts';
import type { Mail } from '../mail/mailer.ts';
import { ARGON2_OPTIONS } from '../sessions/routes.ts';
import { clearSessionCookies, revokeUserSessions } from '../sessions/session-service.ts';
import { hashToken } from '../sessions/tokens.ts';
import { InvalidResetToken, RESET_TOKEN_TTL_MINUTES, UserNotFound, userDecider } from '../users/business-logic.ts';
import { findUserByEmail } from '../users/queries.ts';
import { userStreamId } from '../users/user.ts';
import { resetLink, resetPasswordMail } from './reset-mail.ts';
import { allowResetRequest, findResetToken, isUsable, newResetToken } from './reset-tokens.ts';

/** The one answer to every accepted forgot-password request, registered e-mail or not. */
export const FORGOT_PASSWORD_MESSAGE =
  "If an account exists for that email, we've sent a link to reset your password. Please check your inbox (and your spam folder).";
export const PASSWORD_RESET_DONE = 'Your password has been reset. You can now sign in with your new password.';
const TOO_MANY_FROM_HERE = 'Too many password reset requests. Please wait a few minutes and try again.';
const TOO_MANY_FOR_EMAIL = 'Too many password reset requests for this email. Please wait a few minutes and try again.';

const invalidResetToken = () => new HttpError(400, 'invalid_token', INVALID_RESET_TOKEN);

/** Sends once the current answer is on its way; a failure is logged (never with the link). */
function sendLater(ctx: IdentityContext, mail: Mail, log: FastifyBaseLogger): void {
  setImmediate(() => {
    ctx.mailer.send(mail).then(
      () => log.info('password reset e-mail sent'),
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
        if (!allowed) throw tooManyRequests(TOO_MANY_FOR_EMAIL);

        const user = await findUserByEmail(ctx.sql, email);
        if (user) {
          const token = newResetToken();
          try {
            await ctx.store.handle(
              userStreamId(user.id),
              userDecider,
              {
                type: 'RequestPasswordReset',
                data: { userId: user.id, tokenId: randomUUID(), tokenHash: hashToken(token), ttlMinutes: RESET_TOKEN_TTL_MINUTES, now },
              },
              { metadata: { correlationId: request.correlationId, userId: user.id } },
            );
            mail = resetPasswordMail({
              to: user.email,
              firstName: user.first_name,
              link: resetLink(config.APP_URL, token),
              validMinutes: RESET_TOKEN_TTL_MINUTES,
            });
          } catch (err) {
            // deleted a moment ago: the same answer as for any unknown e-mail
            if (!(err instanceof UserNotFound)) throw err;
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
      const passwordHash = await hash(password, ARGON2_OPTIONS);
      const metadata = { correlationId: request.correlationId, userId };
      try {
        await ctx.store.transaction(async (tx) => {
          await ctx.store.handle(
            userStreamId(userId),
            userDecider,
            { type: 'ResetPassword', data: { userId, tokenHash, passwordHash, now } },
            { tx, metadata },
          );
          await revokeUserSessions(ctx, tx, userId, 'password_reset', { metadata, now });
          // A sign-in lock from failed attempts ends with the new password.
          await tx`delete from login_failures where email = (select email from users where id = ${userId})`;
        });
      } catch (err) {
        // used or voided meanwhile (a second click racing the first), or her account is gone
        if (err instanceof InvalidResetToken || err instanceof UserNotFound || err instanceof ConcurrencyError) throw invalidResetToken();
        throw err;
      }
      clearSessionCookies(reply, ctx);
      return { message: PASSWORD_RESET_DONE };
    },
  );
}
