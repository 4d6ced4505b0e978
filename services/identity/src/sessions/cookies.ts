import { sessionCookieNames } from '@sleepweave/contracts';
import type { FastifyReply } from 'fastify';
import type { IdentityContext } from '../context.ts';
import type { IssuedSession } from './commands.ts';

function cookieOptions(ctx: IdentityContext, maxAgeSeconds: number) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: new URL(ctx.config.APP_URL).protocol === 'https:',
    path: '/',
    maxAge: maxAgeSeconds,
  };
}

export function setSessionCookies(reply: FastifyReply, ctx: IdentityContext, session: IssuedSession): void {
  const names = sessionCookieNames(ctx.config.APP_URL);
  reply.setCookie(names.access, session.accessToken, cookieOptions(ctx, ctx.config.ACCESS_TOKEN_TTL_SECONDS));
  reply.setCookie(names.refresh, session.refreshToken, cookieOptions(ctx, ctx.config.SESSION_TTL_DAYS * 86_400));
}

export function clearSessionCookies(reply: FastifyReply, ctx: IdentityContext): void {
  const names = sessionCookieNames(ctx.config.APP_URL);
  reply.clearCookie(names.access, cookieOptions(ctx, 0));
  reply.clearCookie(names.refresh, cookieOptions(ctx, 0));
}
