import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, bearer, createThread, openThread, post, startCommunity, type Community } from '../test/helpers.ts';

let community: Community;
beforeAll(async () => {
  community = await startCommunity();
});
afterAll(async () => {
  await community?.cleanup();
});

describe('POST /api/community/message', () => {
  it('stores the message as plain text and answers it with its sender', async () => {
    const ines = await addUser(community, { firstName: 'Ines' });
    const thread = await createThread(community, ines);
    const body = '  <script>alert(1)</script>\nLine two & <b>bold</b>  ';
    const response = await post(community, ines, thread.id, body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      threadId: thread.id,
      senderId: ines.id,
      body: '<script>alert(1)</script>\nLine two & <b>bold</b>',
      sender: { firstName: 'Ines', email: null, profileImageUrl: null },
    });
    const detail = (await openThread(community, ines, thread.id)).json();
    expect(detail.messages.at(-1).body).toBe('<script>alert(1)</script>\nLine two & <b>bold</b>');
  });

  it('sent again with its Idempotency-Key (an answer lost after the post), alone or at once: posted once, answered with it', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const send = (key: string, body = 'Cool linen, slept through') =>
      community.app.inject({
        method: 'POST',
        url: '/api/community/message',
        headers: { ...ines.headers, 'idempotency-key': key },
        payload: { threadId: thread.id, body },
      });
    const key = randomUUID();
    const first = await send(key);
    const again = await send(key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual(first.json());
    const together = await Promise.all([send(key), send(key), send(randomUUID())]);
    expect(together.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const { messages } = (await openThread(community, ines, thread.id)).json() as { messages: { body: string }[] };
    expect(messages.filter((m) => m.body === 'Cool linen, slept through')).toHaveLength(2);
    const events = await community.deps.sql`select 1 from events where type = 'MessagePosted' and data->>'threadId' = ${thread.id}`;
    expect(events).toHaveLength(2);
    // the key for another message: refused, nothing posted
    const reused = await send(key, 'Something else');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe('idempotency_key_reused');
  });

  it('one Idempotency-Key sent at once for messages in two threads: one posted, the other refused (409, not a 500)', async () => {
    const ines = await addUser(community);
    const [a, b] = [await createThread(community, ines), await createThread(community, ines)];
    for (let i = 0; i < 5; i++) {
      const key = randomUUID();
      const send = (threadId: string) =>
        community.app.inject({
          method: 'POST',
          url: '/api/community/message',
          headers: { ...ines.headers, 'idempotency-key': key },
          payload: { threadId, body: 'same words' },
        });
      const answers = await Promise.all([send(a.id), send(b.id)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    }
  });

  it('posting in a public thread makes a newcomer a member', async () => {
    const ines = await addUser(community);
    const maya = await addUser(community);
    const thread = await createThread(community, ines);
    expect((await post(community, maya, thread.id, 'Hello from Maya')).statusCode).toBe(201);
    expect((await openThread(community, ines, thread.id)).json().thread.memberCount).toBe(2);
  });

  it("takes a thread's id in any case as the same thread: no second membership, no second member", async () => {
    const ines = await addUser(community);
    const maya = await addUser(community);
    const thread = await createThread(community, ines);
    const upper = thread.id.toUpperCase();
    expect((await post(community, maya, thread.id, 'First')).statusCode).toBe(201);
    expect((await openThread(community, maya, upper)).statusCode).toBe(200);
    const again = await post(community, maya, upper, 'Second, the id in capitals');
    expect(again.statusCode).toBe(201);
    expect(again.json().threadId).toBe(thread.id);
    const detail = (await openThread(community, ines, thread.id)).json();
    expect(detail.thread.memberCount).toBe(2);
    expect(detail.messages.map((m: { body: string }) => m.body)).toEqual(['First', 'Second, the id in capitals']);
    const streams = await community.deps.sql`select distinct stream_id from events where stream_id like ${`member:${maya.id}:%`}`;
    expect(streams.map((row) => row.stream_id)).toEqual([`member:${maya.id}:${thread.id}`]);
  });

  it.each([
    [{ body: '   \n  ' }, 'body: Message must not be empty'],
    [{ body: 'x'.repeat(4_001) }, 'body: Message must be at most 4,000 characters'],
    [{ body: 12345 }, 'body: Message must be text'],
    [{ threadId: 'nope', body: 'Hello' }, 'threadId:'],
    [{ threadId: undefined, body: 'Hello' }, 'threadId:'],
  ])('refuses %j with 400 naming the field', async (overrides, message) => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const response = await community.app.inject({
      method: 'POST',
      url: '/api/community/message',
      headers: ines.headers,
      payload: { threadId: thread.id, ...overrides },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('validation');
    expect(response.json().message).toContain(message);
  });

  it('accepts exactly 4,000 characters', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    expect((await post(community, ines, thread.id, 'w'.repeat(4_000))).statusCode).toBe(201);
  });

  it('answers 404 for a thread that does not exist', async () => {
    const ines = await addUser(community);
    const response = await post(community, ines, randomUUID(), 'Anyone?');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Thread not found or access denied');
  });

  it('answers 401 without a session', async () => {
    const response = await community.app.inject({
      method: 'POST',
      url: '/api/community/message',
      payload: { threadId: randomUUID(), body: 'Hi' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('keeps both of two posts sent at the same moment by the same member', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const answers = await Promise.all(['one', 'two', 'three'].map((body) => post(community, ines, thread.id, body)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(
      (await openThread(community, ines, thread.id))
        .json()
        .messages.map((m: { body: string }) => m.body)
        .sort(),
    ).toEqual(['one', 'three', 'two']);
  });
});

describe('a thread deleted while she posts in it', () => {
  it('a post that meets the deletion of its thread waits for it, then finds the thread gone (404), leaving nothing behind', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const maya = await addUser(community);
    // a deletion under way (her last member's account, say) holds the thread's row
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const deletion = community.deps.sql.begin(async (tx) => {
      await tx`select id from message_threads where id = ${thread.id} for no key update`;
      locked();
      await held;
      await tx`delete from messages where thread_id = ${thread.id}`;
      await tx`delete from thread_members where thread_id = ${thread.id}`;
      await tx`delete from message_threads where id = ${thread.id}`;
    });
    await isLocked;
    let answered = false;
    const posting = post(community, maya, thread.id, 'Anyone still here?').then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false); // it waits for the deletion
    release();
    await deletion;
    const answer = await posting;
    expect(answer.statusCode).toBe(404);
    const { sql } = community.deps;
    expect(await sql`select 1 from messages where thread_id = ${thread.id}`).toEqual([]);
    expect(await sql`select 1 from thread_members where thread_id = ${thread.id}`).toEqual([]);
    expect(await sql`select 1 from events where stream_id = ${`member:${maya.id}:${thread.id}`}`).toEqual([]);
  });
});

describe('sender names', () => {
  it('come from the directory (first name, the part of the e-mail before the @, picture), with nulls for a writer not known here', async () => {
    const named = await addUser(community, { firstName: 'Ada', email: 'ada.lovelace@example.com', profileImageUrl: '/images/ada.png' });
    const unnamed = await addUser(community, { firstName: '', email: 'quiet.reader@example.org' });
    const forgotten = await addUser(community, { firstName: 'Zoe', email: 'zoe@example.net' });
    const thread = await createThread(community, named);
    await post(community, named, thread.id, 'one');
    await post(community, unnamed, thread.id, 'two');
    await post(community, forgotten, thread.id, 'three');
    // A writer missing from the directory (as after a rebuild that has not seen her yet).
    await community.deps.sql`delete from user_directory where user_id = ${forgotten.id}`;

    const response = await openThread(community, named, thread.id);
    const { messages, currentUserId } = response.json();
    expect(currentUserId).toBe(named.id);
    expect(messages.map((m: { body: string; sender: unknown }) => [m.body, m.sender])).toEqual([
      // the part before the @ only for a member without a first name (it often is a full name)
      ['one', { firstName: 'Ada', email: null, profileImageUrl: '/images/ada.png' }],
      ['two', { firstName: '', email: 'quiet.reader', profileImageUrl: null }],
      ['three', { firstName: null, email: null, profileImageUrl: null }],
    ]);
    // No address, domain included, reaches other members: not in the thread, not in a posted message.
    const posted = (await post(community, unnamed, thread.id, 'four')).json();
    expect(posted.sender.email).toBe('quiet.reader');
    for (const text of [response.body, JSON.stringify(posted)]) expect(text).not.toMatch(/@|example\.(com|org|net)|lovelace/);
  });
});

/** Identity's announcement of a newcomer, published without waiting for community to take it. */
const announce = (userId: string) =>
  community.producers.publish(
    testEnvelope('identity.user.registered', {
      userId,
      email: `newcomer.${userId}@example.com`,
      firstName: 'Nell',
      lastName: 'Okafor',
      dateOfBirth: '1970-06-01',
      timezone: 'Europe/London',
      hormonalStage: 'Menopause',
      profileImageUrl: null,
      role: 'participant',
      registeredAt: new Date().toISOString(),
    }),
  );

describe('writers community does not know', () => {
  it('waits a moment for her registration, then answers 503 and stores nothing; once it arrives she can write', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const newcomer = randomUUID();
    const send = (body: string) =>
      community.app.inject({
        method: 'POST',
        url: '/api/community/message',
        headers: bearer(newcomer),
        payload: { threadId: thread.id, body },
      });

    const started = Date.now();
    const response = await send('Hello?');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'unavailable', message: 'Your profile is still being set up. Please try again in a moment.' });
    expect(await community.deps.sql`select 1 from events where stream_id like ${`member:${newcomer}:%`}`).toEqual([]);
    expect(await community.deps.sql`select 1 from messages where sender_id = ${newcomer}`).toEqual([]);

    // Her registration arrives while she waits: the message goes through.
    const late = send('Hello again');
    // (the request is on its way and checks at once; her profile takes a bus round trip)
    await announce(newcomer);
    expect((await late).statusCode).toBe(201);
  });

  it('stamps a message that waited for her registration once it goes in, not when it arrived (a live viewer looks 5 s back)', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const newcomer = randomUUID();
    const sentAt = Date.now();
    const late = community.app.inject({
      method: 'POST',
      url: '/api/community/message',
      headers: bearer(newcomer),
      payload: { threadId: thread.id, body: 'Hello after a wait' },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const registeredAt = Date.now();
    await announce(newcomer);
    const answer = await late;
    expect(answer.statusCode).toBe(201);
    const createdAt = Date.parse((answer.json() as { createdAt: string }).createdAt);
    expect(createdAt - sentAt).toBeGreaterThanOrEqual(1_500);
    expect(createdAt).toBeGreaterThanOrEqual(registeredAt);
  });
});

describe('the message limit', () => {
  it('lets a member send 30 messages a minute, then answers 429; others can still write', async () => {
    const ines = await addUser(community);
    const maya = await addUser(community);
    const thread = await createThread(community, ines);
    for (let i = 1; i <= 30; i++) expect((await post(community, ines, thread.id, `message ${i}`)).statusCode).toBe(201);

    const refused = await post(community, ines, thread.id, 'one too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'too_many_requests',
      message: 'You can send up to 30 messages a minute. Please wait a moment and try again.',
    });
    expect((await post(community, maya, thread.id, 'Maya is not limited by Ines')).statusCode).toBe(201);
    const bodies = (await openThread(community, maya, thread.id)).json().messages.map((m: { body: string }) => m.body);
    expect(bodies).toHaveLength(31);
    expect(bodies).not.toContain('one too many');
  });

  it('does not count a refused body', async () => {
    const limited = await startCommunity({ MESSAGE_POST_LIMIT_PER_MINUTE: '2' });
    try {
      const ines = await addUser(limited);
      const thread = await createThread(limited, ines);
      for (let i = 0; i < 3; i++) expect((await post(limited, ines, thread.id, '   ')).statusCode).toBe(400);
      expect((await post(limited, ines, thread.id, 'one')).statusCode).toBe(201);
      expect((await post(limited, ines, thread.id, 'two')).statusCode).toBe(201);
      expect((await post(limited, ines, thread.id, 'three')).statusCode).toBe(429);
    } finally {
      await limited.cleanup();
    }
  });
});
