import { testEnvelope } from '@sleepweave/bus/testing';
import { rebuildAndSnapshot } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createThread, deleteUser, openThread, post, startCommunity, type Community } from './test/helpers.ts';
import { WELCOME_THREAD_ID } from './threads/commands.ts';
import { threadStreamId } from './threads/thread.ts';
import { membershipStreamId } from './memberships/membership.ts';
import { STUDY_TEAM_ID } from '@sleepweave/contracts';
import { randomUUID } from 'node:crypto';

let community: Community;
beforeAll(async () => {
  community = await startCommunity();
});
afterAll(async () => {
  await community?.cleanup();
});

describe('rebuilding every read model', () => {
  it('gives the same tables: threads, members, messages and participants from the events, the directory from identity’s history', async () => {
    const ines = await addUser(community, { firstName: 'Ines' });
    const maya = await addUser(community, { firstName: 'Maya' });
    const gone = await addUser(community, { firstName: 'Zoe' });
    const thread = await createThread(community, ines, 'Linen at night');
    expect((await post(community, maya, thread.id, 'It helps me')).statusCode).toBe(201);
    expect((await post(community, gone, thread.id, 'Me too')).statusCode).toBe(201);
    expect((await openThread(community, maya, WELCOME_THREAD_ID)).statusCode).toBe(200);
    const consent = testEnvelope('study.consent.given', {
      userId: ines.id,
      consentVersion: '1.0',
      acceptedAt: '2026-01-01T08:00:00.000Z',
      studyStartDate: '2026-01-01',
    });
    await community.producers.publish(consent);
    await expect.poll(async () => (await community.deps.sql`select 1 from study_participants where user_id = ${ines.id}`).length).toBe(1);
    await deleteUser(community, gone.id);

    const { before, after } = await rebuildAndSnapshot(community);
    expect(after).toEqual(before);
    // Maya's, and the study team's welcome message (recorded in the welcome thread's stream).
    expect(after.messages).toHaveLength(2);
    expect(after.user_directory).toHaveLength(2);
    expect(after.study_participants).toHaveLength(1);
    // The stats' day rollups: Maya's last post (Zoe's went with her account) and Ines's start date.
    expect(after.member_activity_days).toEqual([expect.objectContaining({ members: 1 })]);
    expect(after.study_start_days).toEqual([expect.objectContaining({ participants: 1 })]);
  });

  it('keeps through a rebuild what appends update at each event: counts, last messages by (time, id), activity days', async () => {
    const ines = await addUser(community, { firstName: 'Ines' });
    const maya = await addUser(community, { firstName: 'Maya' });
    const zoe = await addUser(community, { firstName: 'Zoe' });
    const thread = await createThread(community, ines, 'Cotton or linen');
    expect((await post(community, maya, thread.id, 'joining')).statusCode).toBe(201);
    expect((await post(community, zoe, thread.id, 'me too')).statusCode).toBe(201);
    const { store } = community.context;
    const posted = async (user: { id: string }, postedAt: string, messageId = randomUUID()) => {
      const data = { messageId, threadId: thread.id, senderId: user.id, body: `said at ${postedAt}`, postedAt };
      await store.appendToStream(membershipStreamId(user.id, thread.id), [{ type: 'MessagePosted', data }], { expectedVersion: 'any' });
    };
    // committed in another order than their times: the later time stays the last
    await posted(maya, '2030-01-03T09:00:00.000Z');
    await posted(zoe, '2030-01-02T09:00:00.000Z');
    await posted(maya, '2030-01-02T23:00:00.000Z');
    // the same time: the greater id is the last, whichever came first
    await posted(zoe, '2030-01-04T12:00:00.000Z', 'ffffffff-0000-4000-8000-000000000000');
    await posted(maya, '2030-01-04T12:00:00.000Z', '00000000-0000-4000-8000-000000000000');
    // in another thread, the study team's is its last message, not its members' last
    const news = await createThread(community, ines, 'Team news');
    const posts = (
      threadId: string,
      user: { id: string },
      postedAt: string,
      type: 'MessagePosted' | 'TeamMessagePosted' = 'MessagePosted',
    ) =>
      store.appendToStream(
        type === 'MessagePosted' ? membershipStreamId(user.id, threadId) : threadStreamId(threadId),
        [{ type, data: { messageId: randomUUID(), threadId, senderId: user.id, body: `${type} at ${postedAt}`, postedAt } }],
        { expectedVersion: 'any' },
      );
    await posts(news.id, ines, '2030-01-03T10:00:00.000Z');
    await posts(news.id, { id: STUDY_TEAM_ID }, '2030-01-05T08:00:00.000Z', 'TeamMessagePosted');
    const row = async (threadId: string) =>
      (
        await community.deps.sql`
          select member_count, last_message_id, last_message_preview, last_message_at, last_member_message_at, activity_at
          from message_threads where id = ${threadId}`
      )[0];
    // a cohort: two of them start on one date, one on another
    const starts = { [ines.id]: '2030-02-01', [maya.id]: '2030-02-01', [zoe.id]: '2030-02-08' };
    for (const [userId, studyStartDate] of Object.entries(starts)) {
      await community.producers.publish(
        testEnvelope('study.consent.given', {
          userId,
          consentVersion: '1.0',
          acceptedAt: `${studyStartDate}T08:00:00.000Z`,
          studyStartDate,
        }),
      );
    }
    const cohort = async () =>
      (
        await community.deps.sql<{ start_date: string; participants: number }[]>`
        select start_date::text, participants from study_start_days where start_date >= '2030-01-01' order by 1`
      ).map((r) => ({ ...r }));
    await expect.poll(cohort).toEqual([
      { start_date: '2030-02-01', participants: 2 },
      { start_date: '2030-02-08', participants: 1 },
    ]);
    const live = await row(thread.id);
    expect(live).toMatchObject({
      member_count: 3,
      last_message_id: 'ffffffff-0000-4000-8000-000000000000',
      last_member_message_at: new Date('2030-01-04T12:00:00.000Z'),
    });
    const liveNews = await row(news.id);
    expect(liveNews).toMatchObject({
      member_count: 1,
      last_message_preview: 'TeamMessagePosted at 2030-01-05T08:00:00.000Z',
      last_member_message_at: new Date('2030-01-03T10:00:00.000Z'),
    });

    const { before, after } = await rebuildAndSnapshot(community);
    expect(after).toEqual(before);
    expect(await row(thread.id)).toEqual(live);
    expect(await row(news.id)).toEqual(liveNews);
    expect(await cohort()).toEqual([
      { start_date: '2030-02-01', participants: 2 },
      { start_date: '2030-02-08', participants: 1 },
    ]);
    const lastOfZoe = await community.deps.sql`select last_posted_at from member_activity where user_id = ${zoe.id}`;
    expect(lastOfZoe[0]!.last_posted_at).toEqual(new Date('2030-01-04T12:00:00.000Z'));
  });
});
