import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '@sleepweave/event-store';
import { untilBlocked } from '@sleepweave/service-kit/testing';
import { onUserDeleted } from '../users/user-deleted.ts';
import { accessToken, bearer, newArticle, startLibrary, type Library } from '../test/helpers.ts';

let library: Library;
beforeAll(async () => {
  library = await startLibrary();
});
afterAll(async () => {
  await library?.cleanup();
});

/** Every place the library could hold a user id: the read model, the events' data and metadata. */
async function mentions(userId: string): Promise<number> {
  const [row] = await library.deps.sql<{ count: number }[]>`
    select (select count(*) from library_cards where created_by = ${userId} or updated_by = ${userId})
         + (select count(*) from events where data::text like ${`%${userId}%`} or metadata::text like ${`%${userId}%`}) as count`;
  return Number(row!.count);
}

describe('identity.user.deleted', () => {
  it('forgets which articles a deleted admin published or revised; the articles stay', async () => {
    const adminId = randomUUID();
    const otherAdminId = randomUUID();
    const token = accessToken('admin', adminId);
    const created = await library.app.inject({ method: 'POST', url: '/api/library/cards', headers: bearer(token), payload: newArticle() });
    expect(created.statusCode).toBe(201);
    const article = created.json();
    const revised = await library.app.inject({
      method: 'PUT',
      url: `/api/library/card/${article.id}`,
      headers: bearer(token),
      payload: newArticle({ title: 'Revised by her' }),
    });
    expect(revised.statusCode).toBe(200);
    const byOther = await library.app.inject({
      method: 'POST',
      url: '/api/library/cards',
      headers: bearer(accessToken('admin', otherAdminId)),
      payload: newArticle(),
    });
    // her card row, and her two events (data and metadata)
    expect(await mentions(adminId)).toBe(3);

    await library.deps.bus.publish(testEnvelope('identity.user.deleted', { userId: adminId, deletedAt: new Date().toISOString() }));

    await expect.poll(() => mentions(adminId), { timeout: 5_000 }).toBe(0);
    const [card] = await library.deps.sql`select title, created_by, updated_by from library_cards where id = ${article.id}`;
    expect(card).toEqual({ title: 'Revised by her', created_by: null, updated_by: null });
    const events = await library.deps
      .sql`select type, data, metadata from events where stream_id = ${`article:${article.id}`} order by stream_position`;
    expect(events.map((e) => e.type)).toEqual(['ArticlePublished', 'ArticleRevised']);
    expect(events[0]!.data.publishedBy).toBeNull();
    expect(events[1]!.data.revisedBy).toBeNull();
    // Another admin's authorship is untouched.
    const [other] = await library.deps.sql`select created_by from library_cards where id = ${byOther.json().id}`;
    expect(other!.created_by).toBe(otherAdminId);
  });

  it('keeps no id of an admin who writes while her deletion is under way, or after it: 401', async () => {
    const { sql } = library.deps;
    const adminId = randomUUID();
    const token = accessToken('admin', adminId);
    const publish = () => library.app.inject({ method: 'POST', url: '/api/library/cards', headers: bearer(token), payload: newArticle() });
    expect((await publish()).statusCode).toBe(201);
    // her deletion, as the consumer makes it, done and not committed yet
    let release!: () => void;
    let done!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const deleted = new Promise<void>((resolve) => (done = resolve));
    const deletion = sql.begin(async (tx) => {
      await onUserDeleted(library.context, tx as unknown as Tx, adminId);
      done();
      await held;
    });
    await deleted;
    const during = publish();
    // before, it did not wait: its card and events, committed after the deletion had
    // cleared her id, kept it
    await untilBlocked(sql);
    release();
    await deletion;
    expect((await during).statusCode).toBe(401);
    expect((await publish()).statusCode).toBe(401);
    expect(await mentions(adminId)).toBe(0);
  });
});
