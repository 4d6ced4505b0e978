import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { rebuildAndSnapshot, registeredEnvelope } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESEARCH_ID_PATTERN } from '../participants/research-id.ts';
import { addMember, consent, night, startResearchExport, type ResearchExport } from '../test/helpers.ts';

let service: ResearchExport;
beforeAll(async () => {
  service = await startResearchExport();
});
afterAll(async () => {
  await service?.cleanup();
});

const rowsOf = async (table: string, userId: string) =>
  service.deps.sql`select * from ${service.deps.sql(table)} where user_id = ${userId}`;

describe('what research learns from the other services', () => {
  it('enrols a consenting participant under a random research id, once', async () => {
    const userId = await addMember(service);
    await consent(service, userId, '2026-10-01');
    await consent(service, userId, '2026-10-05'); // a second consent changes nothing
    await expect.poll(async () => (await rowsOf('research_participants', userId)).length, { timeout: 5_000 }).toBe(1);
    const [participant] = await rowsOf('research_participants', userId);
    expect(participant!.research_id).toMatch(RESEARCH_ID_PATTERN);
    expect(participant!.research_id).not.toContain(userId.slice(0, 8).toUpperCase());
    expect(participant!.study_start_date).toEqual(new Date('2026-10-01T00:00:00.000Z'));
  });

  it('keeps each night as last published, counts revisions, and never keeps her comments', async () => {
    const userId = await addMember(service);
    const first = night(userId, { date: '2026-10-02', studyDay: 2, phase: 'polyester', sleepScore: 70, comments: 'hot again' });
    await service.producers.publish(testEnvelope('study.sleep_log.recorded', first));
    const { recordedAt: _recorded, ...rest } = first;
    await service.producers.publish(
      testEnvelope('study.sleep_log.revised', { ...rest, sleepScore: 74, revisedAt: '2026-10-02T09:00:00.000Z' }),
    );
    await expect.poll(async () => (await rowsOf('research_nights', userId))[0]?.revisions, { timeout: 5_000 }).toBe(1);
    const [row] = await rowsOf('research_nights', userId);
    expect(row).toMatchObject({ sleep_score: 74, phase: 'polyester', study_day: 2, revisions: 1 });
    expect(row).not.toHaveProperty('comments');
  });

  it('applies a night or a consent that arrives before her registration once it has', async () => {
    const early = randomUUID();
    await service.producers.publish(
      testEnvelope('study.sleep_log.recorded', night(early, { date: '2026-10-03', studyDay: 1, phase: 'polyester' })),
    );
    await consent(service, early, '2026-10-03');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowsOf('research_nights', early)).toHaveLength(0);
    await service.producers.publish(
      registeredEnvelope({ userId: early, email: `late.${early}@example.com`, firstName: 'Lena', lastName: 'Moss' }),
    );
    await expect.poll(async () => (await rowsOf('research_nights', early)).length, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await rowsOf('research_participants', early)).length, { timeout: 10_000 }).toBe(1);
  });

  it('forgets a deleted participant: her research id, nights and journal days', async () => {
    const userId = await addMember(service);
    await consent(service, userId, '2026-10-01');
    await service.producers.publish(
      testEnvelope('study.sleep_log.recorded', night(userId, { date: '2026-10-01', studyDay: 1, phase: 'polyester' })),
    );
    await service.producers.publish(
      testEnvelope('journal.entry.written', {
        entryId: randomUUID(),
        userId,
        date: '2026-10-01',
        writtenAt: new Date().toISOString(),
      }),
    );
    await expect.poll(async () => (await rowsOf('research_participants', userId)).length, { timeout: 5_000 }).toBe(1);
    await expect.poll(async () => (await rowsOf('research_journal_entries', userId)).length, { timeout: 5_000 }).toBe(1);
    await expect.poll(async () => (await rowsOf('research_nights', userId)).length, { timeout: 5_000 }).toBe(1);
    await service.producers.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    // her deletion's transaction records her id in deleted_users and removes the rest of her
    await expect.poll(async () => (await rowsOf('deleted_users', userId)).length, { timeout: 10_000 }).toBe(1);
    expect(await rowsOf('research_participants', userId)).toHaveLength(0);
    expect(await rowsOf('research_nights', userId)).toHaveLength(0);
    expect(await rowsOf('research_journal_entries', userId)).toHaveLength(0);
    const events = await service.deps.sql`select 1 from events where stream_id like ${`%${userId}%`} or data::text like ${`%${userId}%`}`;
    expect(events).toHaveLength(0);
  });

  it('counts her journal entries one by one, an entry announced twice (under two event ids) once', async () => {
    const userId = await addMember(service);
    const entry = (entryId: string, writtenAt: string) =>
      testEnvelope('journal.entry.written', { entryId, userId, date: writtenAt.slice(0, 10), writtenAt });
    const twice = randomUUID();
    for (const envelope of [
      entry(randomUUID(), '2026-10-01T21:00:00.000Z'),
      entry(twice, '2026-10-02T21:00:00.000Z'),
      entry(twice, '2026-10-02T21:00:00.000Z'),
      entry(randomUUID(), '2026-10-01T22:00:00.000Z'),
    ]) {
      await service.producers.publish(envelope);
    }
    await expect.poll(async () => (await rowsOf('research_journal_entries', userId)).length, { timeout: 5_000 }).toBe(3);
    await expect
      .poll(async () => (await rowsOf('admin_journal_activity', userId))[0], { timeout: 5_000 })
      .toMatchObject({ entries: 3, last_written_at: new Date('2026-10-02T21:00:00.000Z') });
  });

  it('rebuilds every read model to the same tables, research ids included', async () => {
    const { before, after } = await rebuildAndSnapshot(service);
    expect(after).toEqual(before);
    expect(after.research_participants!.length).toBeGreaterThanOrEqual(2);
  });
});
