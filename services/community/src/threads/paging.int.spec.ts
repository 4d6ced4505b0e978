import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createThread, deleteUser, post, startCommunity, type Community, type TestUser } from '../test/helpers.ts';

let community: Community;
beforeAll(async () => {
  community = await startCommunity();
});
afterAll(async () => {
  await community?.cleanup();
});

const get = (user: TestUser, url: string) => community.app.inject({ method: 'GET', url, headers: user.headers });
type Card = { id: string; memberCount: number; lastMessage: { body: string } | null };
type Detail = { messages: { id: string; body: string }[]; after: string; before: string | null; thread: { memberCount: number } };

describe('the thread list, paged (Growth)', () => {
  it('follows X-Next-Cursor through every thread, in the order of the unpaged list, once each', async () => {
    const ines = await addUser(community);
    for (let i = 0; i < 5; i++) await createThread(community, ines, `Paged ${i}`);
    const whole = (await get(ines, '/api/community/threads')).json<Card[]>();
    expect(whole.length).toBeGreaterThanOrEqual(6);

    const paged: Card[] = [];
    let url = '/api/community/threads?limit=2';
    for (;;) {
      const response = await get(ines, url);
      expect(response.statusCode).toBe(200);
      const page = response.json<Card[]>();
      expect(page.length).toBeLessThanOrEqual(2);
      paged.push(...page);
      const next = response.headers['x-next-cursor'];
      if (typeof next !== 'string') break;
      url = `/api/community/threads?limit=2&cursor=${next}`;
    }
    expect(paged.map((t) => t.id)).toEqual(whole.map((t) => t.id));
  });

  it('refuses a cursor it did not give, and a limit below 1, with 400 and a message; clamps a large limit', async () => {
    const ines = await addUser(community);
    const bad = await get(ines, '/api/community/threads?cursor=bm90LWEtY3Vyc29y');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/cursor is not one this server gave/);
    const zero = await get(ines, '/api/community/threads?limit=0');
    expect(zero.statusCode).toBe(400);
    expect(zero.json().message).toMatch(/limit must be at least 1/);
    const huge = await get(ines, '/api/community/threads?limit=100000');
    expect(huge.statusCode).toBe(200);
    expect(huge.json<Card[]>().length).toBeLessThanOrEqual(100);
  });

  it('keeps member count and last message in the card, and takes a deleted member’s away', async () => {
    const ines = await addUser(community);
    const zoe = await addUser(community);
    const thread = await createThread(community, ines, 'Kept counts');
    expect((await post(community, ines, thread.id, 'First')).statusCode).toBe(201);
    expect((await post(community, zoe, thread.id, 'Zoe was here last')).statusCode).toBe(201);
    const card = async () => (await get(ines, '/api/community/threads')).json<Card[]>().find((t) => t.id === thread.id);
    expect(await card()).toMatchObject({ memberCount: 2, lastMessage: { body: 'Zoe was here last' } });
    await deleteUser(community, zoe.id);
    expect(await card()).toMatchObject({ memberCount: 1, lastMessage: { body: 'First' } });
  });
});

describe('a thread’s messages, paged (Growth)', () => {
  it('gives the newest, earlier ones with ?before=, and what is new with ?after=', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines, 'Cursors');
    for (let i = 1; i <= 5; i++) expect((await post(community, ines, thread.id, `m${i}`)).statusCode).toBe(201);

    const whole = (await get(ines, `/api/community/thread/${thread.id}`)).json<Detail>();
    expect(whole.messages.map((m) => m.body)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(whole.before).toBeNull();

    const newest = (await get(ines, `/api/community/thread/${thread.id}?limit=2`)).json<Detail>();
    expect(newest.messages.map((m) => m.body)).toEqual(['m4', 'm5']);
    expect(newest.before).not.toBeNull();
    const earlier = (await get(ines, `/api/community/thread/${thread.id}?limit=2&before=${newest.before}`)).json<Detail>();
    expect(earlier.messages.map((m) => m.body)).toEqual(['m2', 'm3']);
    const first = (await get(ines, `/api/community/thread/${thread.id}?limit=2&before=${earlier.before}`)).json<Detail>();
    expect(first.messages.map((m) => m.body)).toEqual(['m1']);
    expect(first.before).toBeNull();

    expect((await post(community, ines, thread.id, 'm6')).statusCode).toBe(201);
    const fresh = (await get(ines, `/api/community/thread/${thread.id}?after=${whole.after}`)).json<Detail>();
    // What is new, and the few of the last 5 s before the cursor she may have (merged by id).
    const all = [...whole.messages.map((m) => m.body), 'm6'];
    expect(fresh.messages.map((m) => m.body)).toEqual(all.slice(-fresh.messages.length));
    expect(fresh.thread.memberCount).toBe(1);
    // A message more than 5 s older than the cursor is not sent again.
    await community.deps.sql`
      update messages set created_at = created_at - interval '1 minute' where thread_id = ${thread.id} and body in ('m1', 'm2', 'm3')`;
    const again = (await get(ines, `/api/community/thread/${thread.id}?after=${fresh.after}`)).json<Detail>();
    expect(again.messages.map((m) => m.body)).toEqual(['m4', 'm5', 'm6'].slice(-again.messages.length));
    expect(again.messages.at(-1)?.body).toBe('m6');
  });

  it('refuses a bad cursor, or after with before, with 400 and a message', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const bad = await get(ines, `/api/community/thread/${thread.id}?after=xyz`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/after is not one this server gave/);
    const { after } = (await get(ines, `/api/community/thread/${thread.id}`)).json<Detail>();
    const both = await get(ines, `/api/community/thread/${thread.id}?after=${after}&before=${after}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe('Give either after or before, not both');
  });
});
