/**
 * Each reset link is a stream of its own (`password_reset:<tokenId>`), removed with its row a
 * day after it expired: links asked for her address, by her or by anyone, no longer pile up
 * in her `user:` stream, which every command of hers reads whole, nor anywhere for good.
 */
import { randomUUID } from 'node:crypto';
import { explainAnalyze, totalRowsRead } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteUser } from '../account-deletion/commands.ts';
import { startRetention } from '../retention.ts';
import { hashToken } from '../sessions/tokens.ts';
import { register, startIdentity, type Identity } from '../test/helpers.ts';
import { userStreamId } from '../users/user.ts';
import { requestPasswordReset } from './commands.ts';
import { resetLinkStreamId } from './reset-link.ts';
import { EXPIRED_LINK_KEPT_MS, expiredLinks, removeExpiredResetLinks } from './retention.ts';
import { newResetToken } from './reset-tokens.ts';

const HOUR_MS = 60 * 60_000;
let identity: Identity;
beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(async () => {
  await identity?.cleanup();
});

/** A link for her asked for at `at`; its token and id. */
async function askForLink(userId: string, at = new Date()): Promise<{ token: string; tokenId: string }> {
  const token = newResetToken();
  expect(await requestPasswordReset(identity.context, { userId, tokenHash: hashToken(token), now: at }, {})).toBe(true);
  const [row] = await identity.deps.sql<{ id: string }[]>`select id from password_reset_tokens where token_hash = ${hashToken(token)}`;
  return { token, tokenId: row!.id };
}

const eventsOf = async (streamId: string) =>
  (await identity.deps.sql<{ n: number }[]>`select count(*)::int as n from events where stream_id = ${streamId}`)[0]!.n;
const linkRows = async (tokenId: string) =>
  (await identity.deps.sql<{ n: number }[]>`select count(*)::int as n from password_reset_tokens where id = ${tokenId}`)[0]!.n;
const reset = (token: string, password: string) =>
  identity.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password } });

it('records each link in a stream of its own: her own stream gets nothing, however many are asked for', async () => {
  const { user } = await register(identity);
  const before = await eventsOf(userStreamId(user.id));
  const links = [];
  for (let i = 0; i < 20; i++) links.push(await askForLink(user.id));
  expect(await eventsOf(userStreamId(user.id))).toBe(before);
  for (const { tokenId } of links) expect(await eventsOf(resetLinkStreamId(tokenId))).toBe(1);
  // the last one works, once; it voids the others
  expect((await reset(links.at(-1)!.token, 'a brand new password')).statusCode).toBe(200);
  expect((await reset(links[0]!.token, 'another new password')).statusCode).toBe(400);
});

it('still honours a link recorded in her own stream before links had streams of their own', async () => {
  const { user } = await register(identity);
  const token = newResetToken();
  const now = new Date();
  await identity.context.store.appendToStream(
    userStreamId(user.id),
    [
      {
        type: 'PasswordResetRequested',
        data: {
          userId: user.id,
          tokenId: randomUUID(),
          tokenHash: hashToken(token),
          requestedAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + HOUR_MS).toISOString(),
        },
      },
    ],
    { expectedVersion: 'any' },
  );
  expect((await reset(token, 'a brand new password')).statusCode).toBe(200);
  expect((await reset(token, 'another new password')).statusCode).toBe(400);
});

it('removes a link with its stream a day after it expired, along an index; a live link stays and works', async () => {
  const { user } = await register(identity);
  const old = await askForLink(user.id, new Date(Date.now() - EXPIRED_LINK_KEPT_MS - 2 * HOUR_MS));
  const recent = await askForLink(user.id, new Date(Date.now() - 2 * HOUR_MS)); // expired, within its day
  const live = await askForLink(user.id);

  const { sql } = identity.deps;
  await sql`
    insert into password_reset_tokens (id, user_id, token_hash, created_at, expires_at)
    select gen_random_uuid(), gen_random_uuid(), 'live-' || i, now(), now() + interval '1 hour'
    from generate_series(1, 3000) i`;
  await sql`analyze password_reset_tokens`;
  try {
    const plan = await explainAnalyze(sql, expiredLinks(sql, new Date(Date.now() - EXPIRED_LINK_KEPT_MS)));
    expect(totalRowsRead(plan)).toBeLessThanOrEqual(50);
  } finally {
    await sql`delete from password_reset_tokens where token_hash like 'live-%'`;
  }

  expect(await removeExpiredResetLinks(identity.context, new Date())).toBeGreaterThanOrEqual(1);
  expect([await eventsOf(resetLinkStreamId(old.tokenId)), await linkRows(old.tokenId)]).toEqual([0, 0]);
  expect([await eventsOf(resetLinkStreamId(recent.tokenId)), await linkRows(recent.tokenId)]).toEqual([1, 1]);
  expect((await reset(recent.token, 'a brand new password')).statusCode).toBe(400);
  expect((await reset(live.token, 'a brand new password')).statusCode).toBe(200);

  // and in the background, with the sessions
  const retention = startRetention(identity.context, { everyMs: 50 });
  try {
    const later = await askForLink(user.id, new Date(Date.now() - EXPIRED_LINK_KEPT_MS - 2 * HOUR_MS));
    await expect.poll(async () => linkRows(later.tokenId), { timeout: 5_000 }).toBe(0);
    expect(await eventsOf(resetLinkStreamId(later.tokenId))).toBe(0);
  } finally {
    await retention.stop();
  }
});

it('removes, past its day, a link stream whose row went without it (an account deleted by an instance of before link streams)', async () => {
  const { user } = await register(identity);
  const orphan = await askForLink(user.id, new Date(Date.now() - EXPIRED_LINK_KEPT_MS - 2 * HOUR_MS));
  const young = await askForLink(user.id, new Date(Date.now() - 2 * HOUR_MS));
  const kept = await askForLink(user.id);
  // what the previous release's deletion did: her rows went, her links' streams stayed
  await identity.deps.sql`delete from password_reset_tokens where id in ${identity.deps.sql([orphan.tokenId, young.tokenId])}`;
  await removeExpiredResetLinks(identity.context, new Date());
  expect(await eventsOf(resetLinkStreamId(orphan.tokenId))).toBe(0);
  // not yet a day past its expiry; and a link with its row is the row's to remove
  expect(await eventsOf(resetLinkStreamId(young.tokenId))).toBe(1);
  expect([await eventsOf(resetLinkStreamId(kept.tokenId)), await linkRows(kept.tokenId)]).toEqual([1, 1]);
});

it("removes her links' streams with her account", async () => {
  const { user } = await register(identity);
  const links = [await askForLink(user.id), await askForLink(user.id)];
  expect(await deleteUser(identity.context, user.id, 'self', {})).toBe('deleted');
  for (const { tokenId } of links) expect([await eventsOf(resetLinkStreamId(tokenId)), await linkRows(tokenId)]).toEqual([0, 0]);
  // a link asked for once she is gone is not recorded
  expect(
    await requestPasswordReset(identity.context, { userId: user.id, tokenHash: hashToken(newResetToken()), now: new Date() }, {}),
  ).toBe(false);
});
