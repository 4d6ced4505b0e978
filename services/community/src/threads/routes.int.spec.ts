import { randomUUID } from 'node:crypto';
import { WELCOME_THREAD_NAME } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalHeaders } from '@sleepweave/service-kit';
import { addUser, bearer, createThread, openThread, post, startCommunity, type Community } from '../test/helpers.ts';
import { createPublicThread, startDirectThread, ensureWelcomeThread, MemberNotKnown, WELCOME_THREAD_ID } from './commands.ts';

let community: Community;
beforeAll(async () => {
  community = await startCommunity();
});
afterAll(async () => {
  await community?.cleanup();
});

const list = (headers: { authorization: string }) => community.app.inject({ method: 'GET', url: '/api/community/threads', headers });

describe('the welcome thread', () => {
  it('exists once, pinned and first, after start, restarts and concurrent starts', async () => {
    expect(await ensureWelcomeThread(community.context)).toBe('exists');
    expect(await Promise.all([ensureWelcomeThread(community.context), ensureWelcomeThread(community.context)])).toEqual([
      'exists',
      'exists',
    ]);
    const events = await community.deps.sql`select type from events where stream_id = ${`thread:${WELCOME_THREAD_ID}`}`;
    // Created once, with the study team's welcome message (threads/welcome.int.spec.ts).
    expect(events.map((e) => e.type)).toEqual(['ThreadCreated', 'TeamMessagePosted']);

    const ines = await addUser(community);
    await createThread(community, ines);
    const threads = (await list(ines.headers)).json();
    expect(threads[0]).toMatchObject({ id: WELCOME_THREAD_ID, name: WELCOME_THREAD_NAME, pinned: true, isDirect: false });
    expect(threads.filter((t: { pinned: boolean }) => t.pinned)).toHaveLength(1);
  });

  it('is created by exactly one of two starts racing on a fresh database', async () => {
    const fresh = await startCommunity({}, { background: false }, { onStart: async () => {} });
    try {
      const outcomes = await Promise.all([ensureWelcomeThread(fresh.context), ensureWelcomeThread(fresh.context)]);
      expect(outcomes.sort()).toEqual(['created', 'exists']);
      const rows = await fresh.deps.sql`select count(*)::int as n from message_threads where id = ${WELCOME_THREAD_ID}`;
      expect(rows[0]!.n).toBe(1);
    } finally {
      await fresh.cleanup();
    }
  });
});

describe('POST /api/community/thread', () => {
  it('creates a thread with a trimmed name; its creator is its first member', async () => {
    const ines = await addUser(community);
    const response = await community.app.inject({
      method: 'POST',
      url: '/api/community/thread',
      headers: ines.headers,
      payload: { name: '  Cooling pillows?  ' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Cooling pillows?', memberCount: 1, pinned: false, isDirect: false, lastMessage: null });
    const [row] = await community.deps.sql`select created_by from message_threads where id = ${response.json().id}`;
    expect(row!.created_by).toBe(ines.id);
  });

  it.each([
    [{ name: '   ' }, 'name: Please enter a name for your thread.'],
    [{}, 'name: Please enter a name for your thread.'],
    [{ name: 'x'.repeat(121) }, 'name: Thread name must be at most 120 characters'],
  ])('refuses %j with 400 naming the field', async (payload, message) => {
    const ines = await addUser(community);
    const response = await community.app.inject({ method: 'POST', url: '/api/community/thread', headers: ines.headers, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message });
  });

  it('sent again with its Idempotency-Key: the thread the first try made, once; the key for another name is refused', async () => {
    const ines = await addUser(community);
    const key = randomUUID();
    const create = (name: string) =>
      community.app.inject({
        method: 'POST',
        url: '/api/community/thread',
        headers: { ...ines.headers, 'idempotency-key': key },
        payload: { name },
      });
    const name = `Hot flashes ${randomUUID().slice(0, 8)}`;
    const answers = [await create(name), ...(await Promise.all([create(name), create(name)]))];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((r) => r.json().id)).size).toBe(1);
    const made = await community.deps.sql`select 1 from message_threads where name = ${name}`;
    expect(made).toHaveLength(1);
    expect((await create('Another name')).json()).toMatchObject({ error: 'idempotency_key_reused' });
  });

  it('accepts a name of exactly 120 characters', async () => {
    const ines = await addUser(community);
    const response = await community.app.inject({
      method: 'POST',
      url: '/api/community/thread',
      headers: ines.headers,
      payload: { name: 'y'.repeat(120) },
    });
    expect(response.statusCode).toBe(201);
  });

  it('answers 401 without a session', async () => {
    const response = await community.app.inject({ method: 'POST', url: '/api/community/thread', payload: { name: 'Hello' } });
    expect(response.statusCode).toBe(401);
  });
  it('answers 503 while her registration has not reached community, and creates nothing', async () => {
    const newcomer = randomUUID();
    const response = await community.app.inject({
      method: 'POST',
      url: '/api/community/thread',
      headers: bearer(newcomer),
      payload: { name: 'Too early' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'unavailable', message: 'Your profile is still being set up. Please try again in a moment.' });
    expect(await community.deps.sql`select 1 from message_threads where name = 'Too early'`).toEqual([]);
  });

  it('lets a member start 10 threads an hour, then answers 429; others can still start one', async () => {
    const ines = await addUser(community);
    const maya = await addUser(community);
    for (let i = 1; i <= 10; i++) await createThread(community, ines, `Ines thread ${i}`);
    const refused = await community.app.inject({
      method: 'POST',
      url: '/api/community/thread',
      headers: ines.headers,
      payload: { name: 'Ines thread 11' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'too_many_requests',
      message: 'You can start up to 10 threads an hour. Please try again later.',
    });
    expect(await community.deps.sql`select 1 from message_threads where name = 'Ines thread 11'`).toEqual([]);
    await createThread(community, maya, 'Maya is not limited by Ines');
  });
});

describe('GET /api/community/threads', () => {
  it('carries 100 threads: the pinned one, then the 99 most recently active', async () => {
    const own = await startCommunity();
    try {
      const ines = await addUser(own);
      const base = Date.parse('2026-01-01T00:00:00.000Z');
      const ids: string[] = []; // oldest first
      for (let i = 0; i < 101; i++) {
        const threadId = randomUUID();
        ids.push(threadId);
        await createPublicThread(own.context, { threadId, name: `Thread ${i}`, creatorId: ines.id, now: new Date(base + i * 60_000) }, {});
      }
      const listed = () =>
        own.app.inject({ method: 'GET', url: '/api/community/threads', headers: ines.headers }).then((r) => r.json() as { id: string }[]);

      const threads = await listed();
      expect(threads).toHaveLength(100);
      expect(threads[0]!.id).toBe(WELCOME_THREAD_ID);
      expect(threads.slice(1).map((t) => t.id)).toEqual(ids.slice(2).reverse());

      // A message brings the oldest thread back to the top, after the pinned one.
      await post(own, ines, ids[0]!, 'Still here');
      const after = await listed();
      expect(after).toHaveLength(100);
      expect(after.slice(0, 2).map((t) => t.id)).toEqual([WELCOME_THREAD_ID, ids[0]]);
      expect(after.slice(2).map((t) => t.id)).toEqual(ids.slice(3).reverse());
    } finally {
      await own.cleanup();
    }
  });
});

describe('GET /api/community/thread/{id}', () => {
  it('opening a public thread makes her a member, once; the list shows the count and the last message', async () => {
    const ines = await addUser(community);
    const maya = await addUser(community, { firstName: 'Maya' });
    const thread = await createThread(community, ines);
    await post(community, ines, thread.id, 'First');
    await post(community, ines, thread.id, `Second ${'z'.repeat(150)}`);

    const opened = await openThread(community, maya, thread.id);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ thread: { id: thread.id, name: thread.name, memberCount: 2 }, currentUserId: maya.id });
    expect(opened.json().messages.map((m: { body: string }) => m.body.slice(0, 6))).toEqual(['First', 'Second']);
    await openThread(community, maya, thread.id);

    const card = (await list(maya.headers)).json().find((t: { id: string }) => t.id === thread.id);
    expect(card.memberCount).toBe(2);
    // one character more than the preview: enough to know it was cut
    expect(card.lastMessage.body).toBe(`Second ${'z'.repeat(150)}`.slice(0, 101));
  });

  it('answers 404 with the same words for a missing thread and a malformed id', async () => {
    const ines = await addUser(community);
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const response = await openThread(community, ines, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Thread not found or access denied' });
    }
  });
});

describe('direct threads', () => {
  it('are open to their members only: anyone else gets 404 and never sees them listed', async () => {
    const ines = await addUser(community);
    const maya = await addUser(community, { firstName: 'Maya' });
    const stranger = await addUser(community, { firstName: 'Zoe' });
    const threadId = randomUUID();
    await startDirectThread(
      community.context,
      {
        threadId,
        name: 'Ines & Maya',
        creatorId: ines.id,
        memberIds: [maya.id],
        now: new Date(),
      },
      {},
    );
    expect((await post(community, maya, threadId, 'Just us')).statusCode).toBe(201);

    const refused = await openThread(community, stranger, threadId);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: 'not_found', message: 'Thread not found or access denied' });
    expect(refused.body).not.toContain('Just us');
    const posted = await post(community, stranger, threadId, 'Let me in');
    expect(posted.statusCode).toBe(404);
    expect(posted.json().message).toBe('Thread not found or access denied');
    expect((await list(stranger.headers)).json().some((t: { id: string }) => t.id === threadId)).toBe(false);
    // refusing made her no member
    const members = await community.deps.sql`select user_id from thread_members where thread_id = ${threadId}`;
    expect(members.map((m) => m.user_id).sort()).toEqual([ines.id, maya.id].sort());

    const opened = await openThread(community, maya, threadId);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().thread.isDirect).toBe(true);
    expect((await list(ines.headers)).json().some((t: { id: string }) => t.id === threadId)).toBe(true);
  });
  it('are not started with someone community does not know', async () => {
    const ines = await addUser(community);
    const threadId = randomUUID();
    const start = startDirectThread(
      community.context,
      {
        threadId,
        name: 'Ines & ?',
        creatorId: ines.id,
        memberIds: [randomUUID()],
        now: new Date(),
      },
      {},
    );
    await expect(start).rejects.toBeInstanceOf(MemberNotKnown);
    expect(await community.deps.sql`select 1 from events where stream_id = ${`thread:${threadId}`}`).toEqual([]);
  });
});

describe('GET /internal/threads/{id}/access', () => {
  it('answers 204 for a thread she may open and 404 otherwise, without making her a member', async () => {
    const ines = await addUser(community);
    const stranger = await addUser(community);
    const open = await createThread(community, ines);
    const direct = randomUUID();
    await startDirectThread(
      community.context,
      {
        threadId: direct,
        name: 'Private',
        creatorId: ines.id,
        memberIds: [],
        now: new Date(),
      },
      {},
    );
    const internal = internalHeaders(community.deps.config.INTERNAL_TOKEN);
    const access = (user: { headers: { authorization: string } }, id: string) =>
      community.app.inject({ method: 'GET', url: `/internal/threads/${id}/access`, headers: { ...user.headers, ...internal } });

    expect((await access(stranger, open.id)).statusCode).toBe(204);
    expect((await access(ines, direct)).statusCode).toBe(204);
    expect((await access(stranger, direct)).statusCode).toBe(404);
    expect((await access(stranger, randomUUID())).statusCode).toBe(404);
    // without her token; without the internal token (a caller that is not one of ours)
    expect((await community.app.inject({ method: 'GET', url: `/internal/threads/${open.id}/access`, headers: internal })).statusCode).toBe(
      401,
    );
    expect(
      (await community.app.inject({ method: 'GET', url: `/internal/threads/${open.id}/access`, headers: ines.headers })).statusCode,
    ).toBe(401);
    const [row] = await community.deps.sql`select count(*)::int as n from thread_members where thread_id = ${open.id}`;
    expect(row!.n).toBe(1);
  });
});
