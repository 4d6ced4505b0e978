import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createThread, deleteUser, openThread, post, startCommunity, type Community } from '../test/helpers.ts';
import { startDirectThread, WELCOME_THREAD_ID } from '../threads/thread-service.ts';

let community: Community;
beforeAll(async () => {
  community = await startCommunity();
});
afterAll(async () => {
  await community?.cleanup();
});

describe('events', () => {
  it('publishes thread.created, member.joined and message.posted, without the message body', async () => {
    const seen: EventEnvelope[] = [];
    const watch = await community.deps.bus.watch({
      stream: 'COMMUNITY',
      types: ['community.thread.created', 'community.member.joined', 'community.message.posted'],
      since: new Date(Date.now() - 1_000),
      handler: (e) => {
        seen.push(e);
      },
    });
    try {
      const ines = await addUser(community);
      const maya = await addUser(community);
      const thread = await createThread(community, ines, 'Magnesium before bed?');
      const message = (await post(community, maya, thread.id, 'A very private sentence')).json();
      await expect.poll(() => seen.filter((e) => e.type === 'community.message.posted' && (e.data as { threadId: string }).threadId === thread.id).length, { timeout: 5_000 }).toBe(1);
      const ofThread = seen.filter((e) => (e.data as { threadId: string }).threadId === thread.id);
      expect(ofThread.map((e) => e.type)).toEqual([
        'community.thread.created',
        'community.member.joined',
        'community.member.joined',
        'community.message.posted',
      ]);
      expect(ofThread[0]!.data).toMatchObject({ threadId: thread.id, name: 'Magnesium before bed?', isDirect: false, pinned: false });
      expect(ofThread[1]!.data).toMatchObject({ userId: ines.id, role: 'creator' });
      expect(ofThread[2]!.data).toMatchObject({ userId: maya.id, role: 'member' });
      expect(ofThread[3]!.data).toEqual({ messageId: message.id, threadId: thread.id, senderId: maya.id, createdAt: message.createdAt });
      expect(JSON.stringify(seen)).not.toContain('A very private sentence');
    } finally {
      await watch.stop();
    }
  });
});

describe('a deleted user', () => {
  it('loses her memberships, messages and participation; her threads stay for others or go when empty', async () => {
    const ines = await addUser(community, { firstName: 'Ines' });
    const maya = await addUser(community, { firstName: 'Maya' });
    const shared = await createThread(community, ines, 'Started by Ines');
    const alone = await createThread(community, ines, 'Only Ines was here');
    const direct = randomUUID();
    await startDirectThread(community.context, { threadId: direct, name: 'Maya & Ines', creatorId: maya.id, memberIds: [ines.id], now: new Date(), metadata: {} });
    const onlyTheTwo = randomUUID();
    await startDirectThread(community.context, { threadId: onlyTheTwo, name: 'Ines alone', creatorId: ines.id, memberIds: [], now: new Date(), metadata: {} });
    await post(community, ines, shared.id, 'Ines writes first');
    await post(community, maya, shared.id, 'Maya answers');
    await post(community, ines, direct, 'Ines, privately');
    await post(community, ines, alone.id, 'Talking to myself');
    await openThread(community, ines, WELCOME_THREAD_ID);
    const consent = testEnvelope('study.consent.given', { userId: ines.id, consentVersion: '1.0', acceptedAt: new Date().toISOString(), studyStartDate: '2025-01-01' });
    await community.deps.bus.publish(consent);
    await expect.poll(async () => (await community.deps.sql`select 1 from study_participants where user_id = ${ines.id}`).length, { timeout: 5_000 }).toBe(1);

    await deleteUser(community, ines.id);

    const sharedNow = (await openThread(community, maya, shared.id)).json();
    expect(sharedNow.messages.map((m: { body: string }) => m.body)).toEqual(['Maya answers']);
    expect(sharedNow.thread).toMatchObject({ name: 'Started by Ines', memberCount: 1 });
    const directNow = (await openThread(community, maya, direct)).json();
    expect(directNow.messages).toEqual([]);
    expect(directNow.thread.memberCount).toBe(1);
    for (const gone of [alone.id, onlyTheTwo]) expect((await openThread(community, maya, gone)).statusCode).toBe(404);
    expect((await openThread(community, maya, WELCOME_THREAD_ID)).statusCode).toBe(200);

    // Nothing in the database names her any more.
    const { sql } = community.deps;
    const leftovers = await sql`
      select 'events' as t from events where stream_id like ${`%${ines.id}%`} or data::text like ${`%${ines.id}%`} or metadata::text like ${`%${ines.id}%`}
      union all select 'threads' from message_threads where created_by = ${ines.id}
      union all select 'members' from thread_members where user_id = ${ines.id}
      union all select 'messages' from messages where sender_id = ${ines.id}
      union all select 'participants' from study_participants where user_id = ${ines.id}
      union all select 'directory' from user_directory where user_id = ${ines.id}`;
    expect(leftovers).toEqual([]);
    expect(await sql`select 1 from events where stream_id in ${sql([`thread:${alone.id}`, `thread:${onlyTheTwo}`])}`).toEqual([]);
  });

  it('is not brought back by a late study consent', async () => {
    const zoe = await addUser(community);
    await deleteUser(community, zoe.id);
    const late = testEnvelope('study.consent.given', { userId: zoe.id, consentVersion: '1.0', acceptedAt: new Date().toISOString(), studyStartDate: '2025-01-01' });
    await community.deps.bus.publish(late);
    await expect.poll(async () => (await community.deps.sql`select 1 from inbox where event_id = ${late.id}`).length, { timeout: 5_000 }).toBe(1);
    expect(await community.deps.sql`select 1 from study_participants where user_id = ${zoe.id}`).toEqual([]);
  });
});
