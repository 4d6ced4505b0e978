import { duringDeletion, registeredEnvelope } from '@sleepweave/service-kit/testing';
import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createThread, deleteUser, openThread, post, startCommunity, type Community, type TestUser } from '../test/helpers.ts';
import { startDirectThread, WELCOME_THREAD_ID } from '../threads/commands.ts';

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
      await expect
        .poll(
          () => seen.filter((e) => e.type === 'community.message.posted' && (e.data as { threadId: string }).threadId === thread.id).length,
          { timeout: 5_000 },
        )
        .toBe(1);
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
    await startDirectThread(
      community.context,
      {
        threadId: direct,
        name: 'Maya & Ines',
        creatorId: maya.id,
        memberIds: [ines.id],
        now: new Date(),
      },
      {},
    );
    const onlyTheTwo = randomUUID();
    await startDirectThread(
      community.context,
      {
        threadId: onlyTheTwo,
        name: 'Ines alone',
        creatorId: ines.id,
        memberIds: [],
        now: new Date(),
      },
      {},
    );
    await post(community, ines, shared.id, 'Ines writes first');
    await post(community, maya, shared.id, 'Maya answers');
    await post(community, ines, direct, 'Ines, privately');
    await post(community, ines, alone.id, 'Talking to myself');
    await openThread(community, ines, WELCOME_THREAD_ID);
    const consent = testEnvelope('study.consent.given', {
      userId: ines.id,
      consentVersion: '1.0',
      acceptedAt: new Date().toISOString(),
      studyStartDate: '2025-01-01',
    });
    await community.producers.publish(consent);
    await expect
      .poll(async () => (await community.deps.sql`select 1 from study_participants where user_id = ${ines.id}`).length, { timeout: 5_000 })
      .toBe(1);

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
    // and nothing written in her deletion's transaction stays to link her to the threads she was in
    const [deletion] = await sql<{ written: number }[]>`
      select count(*)::int as written from events e, deleted_users d
      where d.user_id = ${ines.id} and e.transaction_id::text::numeric % 4294967296 = d.xmin::text::numeric`;
    expect(deletion!.written).toBe(0);
    expect(await sql`select 1 from events where stream_id in ${sql([`thread:${alone.id}`, `thread:${onlyTheTwo}`])}`).toEqual([]);
  });

  it('is not brought back by a late study consent', async () => {
    const zoe = await addUser(community);
    await deleteUser(community, zoe.id);
    const late = testEnvelope('study.consent.given', {
      userId: zoe.id,
      consentVersion: '1.0',
      acceptedAt: new Date().toISOString(),
      studyStartDate: '2025-01-01',
    });
    await community.producers.publish(late);
    await expect
      .poll(async () => (await community.deps.sql`select 1 from inbox where event_id = ${late.id}`).length, { timeout: 5_000 })
      .toBe(1);
    expect(await community.deps.sql`select 1 from study_participants where user_id = ${zoe.id}`).toEqual([]);
  });

  it('applies a study consent that arrived before her registration once the registration has', async () => {
    const userId = randomUUID();
    const early = testEnvelope('study.consent.given', {
      userId,
      consentVersion: '1.0',
      acceptedAt: new Date().toISOString(),
      studyStartDate: '2025-01-01',
    });
    await community.producers.publish(early); // the two come on different streams, in no set order
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await community.deps.sql`select 1 from inbox where event_id = ${early.id}`).toEqual([]); // not consumed yet: retried
    await community.producers.publish(
      registeredEnvelope({ userId, email: `late.${userId}@example.com`, firstName: 'Lena', lastName: 'Okafor' }),
    );
    await expect
      .poll(
        async () => (await community.deps.sql`select study_start_date::text as d from study_participants where user_id = ${userId}`)[0]?.d,
        {
          timeout: 10_000,
        },
      )
      .toBe('2025-01-01');
  });

  describe('racing a write', () => {
    /** Every place community could keep something of hers. */
    const traces = async (user: TestUser) => {
      const { sql } = community.deps;
      const id = user.id;
      return sql`
        select 'events' as t from events where stream_id like ${`%${id}%`} or data::text like ${`%${id}%`} or metadata::text like ${`%${id}%`}
        union all select 'threads' from message_threads where created_by = ${id}
        union all select 'members' from thread_members where user_id = ${id}
        union all select 'messages' from messages where sender_id = ${id}
        union all select 'participants' from study_participants where user_id = ${id}
        union all select 'directory' from user_directory where user_id = ${id}`;
    };
    const deleted = { error: 'unauthorized', message: 'This account has been deleted.' };

    it('a message sent while her deletion is applied leaves nothing of hers (401)', async () => {
      const ines = await addUser(community);
      const maya = await addUser(community);
      const thread = await createThread(community, maya);
      await post(community, ines, thread.id, 'before');
      const during = await duringDeletion(community, ines.id, () => post(community, ines, thread.id, 'during the deletion'));
      expect(await traces(ines)).toEqual([]);
      expect((await openThread(community, maya, thread.id)).json().thread.memberCount).toBe(1);
      expect(during.statusCode).toBe(401);
      expect(during.json()).toEqual(deleted);
    });

    it('a thread started while her deletion is applied leaves nothing of hers (401)', async () => {
      const ines = await addUser(community);
      const name = `Started while leaving ${randomUUID()}`;
      const during = await duringDeletion(community, ines.id, () =>
        community.app.inject({ method: 'POST', url: '/api/community/thread', headers: ines.headers, payload: { name } }),
      );
      expect(await traces(ines)).toEqual([]);
      expect(await community.deps.sql`select 1 from message_threads where name = ${name}`).toEqual([]);
      expect(during.statusCode).toBe(401);
    });

    it('a thread opened (joined) while her deletion is applied leaves nothing of hers (401)', async () => {
      const ines = await addUser(community);
      const maya = await addUser(community);
      const thread = await createThread(community, maya);
      const during = await duringDeletion(community, ines.id, () => openThread(community, ines, thread.id));
      expect(await traces(ines)).toEqual([]);
      expect(during.statusCode).toBe(401);
    });

    it('a study consent consumed while her deletion is applied leaves nothing of hers', async () => {
      const ines = await addUser(community);
      const consent = testEnvelope('study.consent.given', {
        userId: ines.id,
        consentVersion: '1.0',
        acceptedAt: new Date().toISOString(),
        studyStartDate: '2025-01-01',
      });
      await duringDeletion(community, ines.id, () => community.producers.publish(consent), { until: 'blocked' });
      await expect
        .poll(async () => (await community.deps.sql`select 1 from inbox where event_id = ${consent.id}`).length, { timeout: 5_000 })
        .toBe(1);
      expect(await traces(ines)).toEqual([]);
    });

    it('after her deletion, her token gets 401 (not "still being set up")', async () => {
      const ines = await addUser(community);
      const maya = await addUser(community);
      const thread = await createThread(community, maya);
      await deleteUser(community, ines.id);
      for (const response of [
        await post(community, ines, thread.id, 'late'),
        await openThread(community, ines, thread.id),
        await community.app.inject({ method: 'POST', url: '/api/community/thread', headers: ines.headers, payload: { name: 'late' } }),
      ]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(deleted);
      }
      expect(await traces(ines)).toEqual([]);
    });
  });
});

describe('study.consent.given', () => {
  it("records her participation with the event's time, so a replay records the same", async () => {
    const ines = await addUser(community);
    const consent = {
      ...testEnvelope('study.consent.given', {
        userId: ines.id,
        consentVersion: '1.0',
        acceptedAt: '2025-01-01T08:00:00.000Z',
        studyStartDate: '2025-01-01',
      }),
      time: '2025-01-01T08:00:01.000Z',
    };
    await community.producers.publish(consent);
    await expect
      .poll(async () => (await community.deps.sql`select 1 from inbox where event_id = ${consent.id}`).length, { timeout: 5_000 })
      .toBe(1);
    const events = await community.deps.sql`select data from events where stream_id = ${`study_participant:${ines.id}`}`;
    expect(events.map((e) => e.data)).toEqual([{ userId: ines.id, studyStartDate: '2025-01-01', recordedAt: '2025-01-01T08:00:01.000Z' }]);
  });
});
