import { testEnvelope } from '@sleepweave/bus/testing';
import { rebuildAndSnapshot } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createThread, deleteUser, openThread, post, startCommunity, type Community } from './test/helpers.ts';
import { WELCOME_THREAD_ID } from './threads/commands.ts';

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
});
