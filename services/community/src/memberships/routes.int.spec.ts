import { randomUUID } from 'node:crypto';
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
      sender: { firstName: 'Ines', email: ines.email, profileImageUrl: null },
    });
    const detail = (await openThread(community, ines, thread.id)).json();
    expect(detail.messages.at(-1).body).toBe('<script>alert(1)</script>\nLine two & <b>bold</b>');
  });

  it('posting in a public thread makes a newcomer a member', async () => {
    const ines = await addUser(community);
    const maya = await addUser(community);
    const thread = await createThread(community, ines);
    expect((await post(community, maya, thread.id, 'Hello from Maya')).statusCode).toBe(201);
    expect((await openThread(community, ines, thread.id)).json().thread.memberCount).toBe(2);
  });

  it.each([
    [{ body: '   \n  ' }, 'body: Message must not be empty'],
    [{ body: 'x'.repeat(4_001) }, 'body: Message must be at most 4,000 characters'],
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
    const response = await community.app.inject({ method: 'POST', url: '/api/community/message', payload: { threadId: randomUUID(), body: 'Hi' } });
    expect(response.statusCode).toBe(401);
  });

  it('keeps both of two posts sent at the same moment by the same member', async () => {
    const ines = await addUser(community);
    const thread = await createThread(community, ines);
    const answers = await Promise.all(['one', 'two', 'three'].map((body) => post(community, ines, thread.id, body)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect((await openThread(community, ines, thread.id)).json().messages.map((m: { body: string }) => m.body).sort()).toEqual(['one', 'three', 'two']);
  });
});

describe('sender names', () => {
  it('come from the directory (first name, e-mail, picture), with nulls for a writer not known here', async () => {
    const named = await addUser(community, { firstName: 'Ada', profileImageUrl: '/images/ada.png' });
    const unnamed = await addUser(community, { firstName: '', email: 'quiet.reader@example.com' });
    const unknownId = randomUUID(); // her registration has not reached community yet
    const thread = await createThread(community, named);
    await post(community, named, thread.id, 'one');
    await post(community, unnamed, thread.id, 'two');
    const third = await community.app.inject({ method: 'POST', url: '/api/community/message', headers: bearer(unknownId), payload: { threadId: thread.id, body: 'three' } });
    expect(third.statusCode).toBe(201);

    const { messages, currentUserId } = (await openThread(community, named, thread.id)).json();
    expect(currentUserId).toBe(named.id);
    expect(messages.map((m: { body: string; sender: unknown }) => [m.body, m.sender])).toEqual([
      ['one', { firstName: 'Ada', email: named.email, profileImageUrl: '/images/ada.png' }],
      ['two', { firstName: '', email: 'quiet.reader@example.com', profileImageUrl: null }],
      ['three', { firstName: null, email: null, profileImageUrl: null }],
    ]);
  });
});
