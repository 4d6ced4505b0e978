import { STUDY_TEAM_ID, STUDY_TEAM_NAME } from '@sleepweave/contracts';
import { rebuildAndSnapshot, startTestService, testEnv } from '@sleepweave/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { readCommunityConfig } from '../config.ts';
import { communityService } from '../service.ts';
import { communityStats } from '../stats/queries.ts';
import { addUser, startCommunity, type Community } from '../test/helpers.ts';
import { ensureWelcomeMessage, WELCOME_MESSAGE_BODY, WELCOME_MESSAGE_ID, WELCOME_THREAD_ID } from './commands.ts';
import { threadStreamId } from './thread.ts';

/** The welcome thread's own events and the message rows of the team, in one database. */
async function welcomeRecords(sql: Community['deps']['sql']) {
  const events = await sql<{ type: string }[]>`
    select type from events where stream_id = ${threadStreamId(WELCOME_THREAD_ID)} order by stream_position`;
  const [messages] = await sql<{ count: number }[]>`
    select count(*)::int as count from messages where thread_id = ${WELCOME_THREAD_ID} and sender_id = ${STUDY_TEAM_ID}`;
  return { events: events.map((e) => e.type), teamMessages: messages!.count };
}
const once = { events: ['ThreadCreated', 'TeamMessagePosted'], teamMessages: 1 };

describe('the welcome message of the study team', () => {
  let community: Community | undefined;
  afterAll(async () => {
    await community?.cleanup();
  });

  it('is in the welcome thread after the first start, from the study team, and counts as no member', async () => {
    community = await startCommunity();
    const ines = await addUser(community);

    const list = await community.app.inject({ method: 'GET', url: '/api/community/threads', headers: ines.headers });
    const welcome = list.json<{ id: string; memberCount: number; lastMessage: { body: string } | null }[]>()[0]!;
    expect(welcome.id).toBe(WELCOME_THREAD_ID);
    expect(welcome.lastMessage?.body).toBe(WELCOME_MESSAGE_BODY.slice(0, 101));
    expect(welcome.memberCount).toBe(0);

    const detail = await community.app.inject({ method: 'GET', url: `/api/community/thread/${WELCOME_THREAD_ID}`, headers: ines.headers });
    const { messages } = detail.json<{ messages: { id: string; senderId: string; body: string; sender: unknown }[] }>();
    expect(messages).toEqual([
      expect.objectContaining({
        id: WELCOME_MESSAGE_ID,
        senderId: STUDY_TEAM_ID,
        body: WELCOME_MESSAGE_BODY,
        sender: { firstName: STUDY_TEAM_NAME, email: null, profileImageUrl: null },
      }),
    ]);
    // Opening the thread made Ines its one member: the team is not one.
    const again = await community.app.inject({ method: 'GET', url: '/api/community/threads', headers: ines.headers });
    expect(again.json<{ memberCount: number }[]>()[0]!.memberCount).toBe(1);

    // The tiles are about members: the team's message, posted today, is in neither.
    const stats = await communityStats(community.deps.sql, { now: new Date(), timezone: 'Europe/London' });
    expect(stats).toMatchObject({ activeMembers: 0, discussionsToday: 0 });

    // Posting it again changes nothing; the read model rebuilds to the same rows.
    expect(await ensureWelcomeMessage(community.context)).toBe('exists');
    expect(await welcomeRecords(community.deps.sql)).toEqual(once);
    const { before, after } = await rebuildAndSnapshot(community);
    expect(after).toEqual(before);
  });

  it('is posted exactly once by replicas starting together on an empty database, and by restarts', async () => {
    // One database for these instances, as replicas share it.
    const env = testEnv();
    const start = () => startTestService(communityService, readCommunityConfig(env), { background: false });
    const [a, b] = await Promise.all([start(), start()]);
    expect(await welcomeRecords(a.deps.sql)).toEqual(once);
    await a.stop();
    await b.stop();

    const restarted = await start();
    try {
      expect(await welcomeRecords(restarted.deps.sql)).toEqual(once);
      expect(await Promise.all([ensureWelcomeMessage(restarted.context), ensureWelcomeMessage(restarted.context)])).toEqual([
        'exists',
        'exists',
      ]);
      expect(await welcomeRecords(restarted.deps.sql)).toEqual(once);
    } finally {
      await restarted.cleanup();
    }
  });
});
