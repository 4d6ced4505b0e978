import { randomUUID } from 'node:crypto';
import type { Role } from '@sleepweave/contracts';
import type { EventMetadata } from '@sleepweave/event-store';
import { execute, runCommand, type CommandScope } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { SessionNotActive, sessionDecider } from './business-logic.ts';
import { findSessionOfToken, isCurrentRefreshToken } from './queries.ts';
import { MAX_SESSIONS_PER_USER, RETIRED_TOKEN_ACCESS_MS, sessionStreamId, type RevokeReason } from './session.ts';
import { hashToken, newRefreshToken, signAccessToken } from './tokens.ts';

export interface IssuedSession {
  sessionId: string;
  accessToken: string;
  refreshToken: string;
}

/** Her password changed (a reset, a change) while a sign-in with the old one was being checked. */
export class PasswordChangedMeanwhile extends Error {
  constructor() {
    super('The password changed while signing in');
  }
}

/**
 * Starts a server-side session and signs its first access token. `passwordHash`: the hash
 * a sign-in checked her password against, which must still be hers when the session is
 * made (else PasswordChangedMeanwhile).
 */
export async function openSession(
  ctx: IdentityContext,
  user: { id: string; role: Role; passwordHash?: string },
  metadata: EventMetadata,
  now = new Date(),
): Promise<IssuedSession> {
  const sessionId = randomUUID();
  const refreshToken = newRefreshToken();
  await execute(ctx, { metadata: { ...metadata, userId: user.id } }, async ({ tx, handle }) => {
    // Her row stays until this commits: an account deletion running meanwhile waits for
    // this session and revokes it, or has finished and this sign-in fails. Locked against
    // her other sign-ins too, so that each counts the sessions the one before made (the cap
    // below holds however many come at once); not against the key-share locks of rows that
    // refer to hers.
    const [row] = await tx<{ password_hash: string }[]>`select password_hash from users where id = ${user.id} for no key update`;
    if (!row) throw new Error('The user was deleted while signing in');
    // Likewise a reset or a change of her password: it revokes the sessions it finds when it
    // commits, so one made with the old password after that would outlive it.
    if (user.passwordHash !== undefined && row.password_hash !== user.passwordHash) throw new PasswordChangedMeanwhile();
    // One more than MAX_SESSIONS_PER_USER: her oldest end.
    const oldest = await tx<{ id: string }[]>`
      select id from sessions where user_id = ${user.id} and revoked_at is null and expires_at > ${now}
      order by started_at desc, id desc offset ${MAX_SESSIONS_PER_USER - 1}`;
    for (const { id } of oldest) {
      await handle(sessionStreamId(id), sessionDecider, { type: 'RevokeSession', data: { sessionId: id, reason: 'session_limit', now } });
    }
    // A new session's stream: its id was made above (nothing to read).
    await handle(
      sessionStreamId(sessionId),
      sessionDecider,
      {
        type: 'StartSession',
        data: { sessionId, userId: user.id, refreshTokenHash: hashToken(refreshToken), now, ttlDays: ctx.config.SESSION_TTL_DAYS },
      },
      { expectedVersion: 'no_stream' },
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
  await runCommand(
    ctx,
    sessionStreamId(sessionId),
    sessionDecider,
    { type: 'RevokeSession', data: { sessionId, reason, now } },
    { metadata },
  );
}

export type RefreshOutcome =
  /** A new access token and a new refresh token (the presented one is retired). */
  | { kind: 'rotated'; userId: string; sessionId: string; role: Role; refreshToken: string; expiresAt: Date }
  /**
   * No rotation asked for, or a token retired a moment ago (the same cookie in requests sent
   * together): an access token only, living until `expiresAt` at most (the session's end; for
   * a retired token, a minute: RETIRED_TOKEN_ACCESS_MS).
   */
  | { kind: 'grace'; userId: string; sessionId: string; role: Role; expiresAt: Date }
  /** Unknown, ended, expired, or a reused retired token (which has just ended its session). */
  | { kind: 'refused' };

/**
 * Trades a refresh token for a new one (rotation, unless `rotate` is false), detecting the
 * reuse of a retired one.
 */
export async function refreshSession(
  ctx: IdentityContext,
  refreshToken: string,
  metadata: EventMetadata,
  options: { rotate: boolean; now?: Date } = { rotate: true },
): Promise<RefreshOutcome> {
  const now = options.now ?? new Date();
  const presentedHash = hashToken(refreshToken);
  const session = await findSessionOfToken(ctx.sql, presentedHash);
  if (!session) return { kind: 'refused' };
  const replacement = newRefreshToken();
  try {
    const { events } = await runCommand(
      ctx,
      sessionStreamId(session.id),
      sessionDecider,
      {
        type: 'RefreshSession',
        data: { sessionId: session.id, presentedHash, newRefreshTokenHash: options.rotate ? hashToken(replacement) : null, now },
      },
      { metadata: { ...metadata, userId: session.user_id } },
    );
    const [event] = events;
    if (!event) {
      // Whether the token is still the current one, asked after the command (which waited for
      // a renewal of the same token sent at the same moment): read before, it was, and the
      // token retired meanwhile got a whole access token's life.
      const current = await isCurrentRefreshToken(ctx.sql, session.id, presentedHash);
      const accessUntil = current
        ? session.expires_at
        : new Date(Math.min(session.expires_at.getTime(), now.getTime() + RETIRED_TOKEN_ACCESS_MS));
      return { kind: 'grace', userId: session.user_id, sessionId: session.id, role: session.role, expiresAt: accessUntil };
    }
    if (event.type === 'SessionRevoked') return { kind: 'refused' };
    return {
      kind: 'rotated',
      userId: session.user_id,
      sessionId: session.id,
      role: session.role,
      refreshToken: replacement,
      expiresAt: session.expires_at,
    };
  } catch (err) {
    if (err instanceof SessionNotActive) return { kind: 'refused' };
    throw err;
  }
}

/**
 * Revokes every active session of a user (password reset, password change), except
 * `keep` (the session that changed the password), inside the command's transaction.
 * Returns the ids revoked.
 */
export async function revokeUserSessions(
  { tx, handle }: CommandScope,
  userId: string,
  reason: RevokeReason,
  options: { now: Date; keep?: string },
): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`
    select id from sessions
    where user_id = ${userId} and revoked_at is null and expires_at > ${options.now}
      and (${options.keep ?? null}::uuid is null or id <> ${options.keep ?? null}::uuid)`;
  for (const { id } of rows) {
    await handle(sessionStreamId(id), sessionDecider, { type: 'RevokeSession', data: { sessionId: id, reason, now: options.now } });
  }
  return rows.map((row) => row.id);
}
