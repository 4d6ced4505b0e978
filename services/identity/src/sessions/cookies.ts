import { ACCESS_COOKIE, REFRESH_COOKIE } from '@sleepweave/contracts';
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
  reply.setCookie(ACCESS_COOKIE, session.accessToken, cookieOptions(ctx, ctx.config.ACCESS_TOKEN_TTL_SECONDS));
  reply.setCookie(REFRESH_COOKIE, session.refreshToken, cookieOptions(ctx, ctx.config.SESSION_TTL_DAYS * 86_400));
}

export function clearSessionCookies(reply: FastifyReply, ctx: IdentityContext): void {
  reply.clearCookie(ACCESS_COOKIE, cookieOptions(ctx, 0));
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(ctx, 0));
}
