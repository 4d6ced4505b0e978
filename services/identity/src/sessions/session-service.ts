import { randomUUID } from 'node:crypto';
import { ACCESS_COOKIE, REFRESH_COOKIE, type Role } from '@sleepweave/contracts';
import type { EventMetadata, Tx } from '@sleepweave/event-store';
import type { FastifyReply } from 'fastify';
import type { IdentityContext } from '../context.ts';
import { sessionDecider } from './business-logic.ts';
import type { RevokeReason } from './session.ts';
import { sessionStreamId } from './session.ts';
import { hashToken, newRefreshToken, signAccessToken } from './tokens.ts';

export interface IssuedSession {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
}

/** Starts a server-side session and signs its first access token. */
export async function openSession(
  ctx: IdentityContext,
  user: { id: string; role: Role },
  metadata: EventMetadata,
  now = new Date(),
): Promise<IssuedSession> {
  const sessionId = randomUUID();
  const refreshToken = newRefreshToken();
  await ctx.store.transaction(async (tx) => {
    // Her row stays until this commits: an account deletion running meanwhile waits for
    // this session and revokes it, or has finished and this sign-in fails.
    const [row] = await tx`select 1 from users where id = ${user.id} for share`;
    if (!row) throw new Error('The user was deleted while signing in');
    await ctx.store.handle(
      sessionStreamId(sessionId),
      sessionDecider,
      {
        type: 'StartSession',
        data: { sessionId, userId: user.id, refreshTokenHash: hashToken(refreshToken), now, ttlDays: ctx.config.SESSION_TTL_DAYS },
      },
      { tx, metadata: { ...metadata, userId: user.id } },
    );
  });
  const accessToken = await signAccessToken(
    ctx.keys,
    { userId: user.id, sessionId, role: user.role },
    ctx.config.ACCESS_TOKEN_TTL_SECONDS,
    now,
  );
  return { sessionId, accessToken, refreshToken };
}

export async function revokeSession(
  ctx: IdentityContext,
  sessionId: string,
  reason: RevokeReason,
  metadata: EventMetadata,
  now = new Date(),
): Promise<void> {
  await ctx.store.handle(
    sessionStreamId(sessionId),
    sessionDecider,
    { type: 'RevokeSession', data: { sessionId, reason, now } },
    { metadata },
  );
}

/**
 * Revokes every active session of a user (password reset, password change), except
 * `keep` (the session that changed the password), inside the caller's transaction.
 * Returns the ids revoked.
 */
export async function revokeUserSessions(
  ctx: IdentityContext,
  tx: Tx,
  userId: string,
  reason: RevokeReason,
  options: { metadata: EventMetadata; now: Date; keep?: string },
): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`
    select id from sessions
    where user_id = ${userId} and revoked_at is null and expires_at > ${options.now}
      and (${options.keep ?? null}::uuid is null or id <> ${options.keep ?? null}::uuid)`;
  for (const { id } of rows) {
    await ctx.store.handle(
      sessionStreamId(id),
      sessionDecider,
      { type: 'RevokeSession', data: { sessionId: id, reason, now: options.now } },
      { tx, metadata: options.metadata },
    );
  }
  return rows.map((row) => row.id);
}

/** An active session for a refresh token, with the user's current role. */
export async function findActiveSession(ctx: IdentityContext, refreshToken: string, now = new Date()) {
  const [row] = await ctx.sql<{ id: string; user_id: string; role: Role }[]>`
    select s.id, s.user_id, u.role
    from sessions s join users u on u.id = s.user_id
    where s.refresh_token_hash = ${hashToken(refreshToken)} and s.revoked_at is null and s.expires_at > ${now}`;
  return row;
}

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
