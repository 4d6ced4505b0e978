import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { addDays, calendarDateIn } from '@sleepweave/contracts';
import { rebuildAndSnapshot } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminStats } from './admin/stats.ts';
import { addMember, consent, night, startResearchExport, waitUntil, type ResearchExport } from './test/helpers.ts';

let service: ResearchExport;
beforeAll(async () => {
  service = await startResearchExport();
});
afterAll(async () => {
  await service?.cleanup();
});

describe('rebuilding every read model', () => {
  it("gives the same tables and tiles, and folds the rebuild's tallies at its end", async () => {
    const { sql } = service.deps;
    const today = calendarDateIn('Europe/London', new Date());
    const members = [await addMember(service), await addMember(service), await addMember(service)];
    const start = addDays(today, -12);
    for (const [i, userId] of members.entries()) {
      await consent(service, userId, start);
      for (let day = 1; day <= 4 + i; day++) {
        await service.producers.publish(
          testEnvelope('study.sleep_log.recorded', night(userId, { date: addDays(start, day - 1), studyDay: day, phase: 'polyester' })),
        );
      }
      const writtenAt = new Date(Date.now() - i * 3 * 86_400_000);
      await service.producers.publish(
        testEnvelope('journal.entry.written', {
          entryId: randomUUID(),
          userId,
          date: calendarDateIn('Europe/London', writtenAt),
          writtenAt: writtenAt.toISOString(),
        }),
      );
    }
    await waitUntil(
      async () =>
        (await sql<{ n: number }[]>`select coalesce(sum(nights), 0)::int as n from admin_night_activity`)[0]!.n === 4 + 5 + 6 &&
        (await sql`select 1 from admin_journal_activity`).length === 3 &&
        (await sql`select 1 from research_participants`).length === 3,
      'the events applied',
    );
    const tiles = await adminStats(sql, new Date());
    expect(tiles).toMatchObject({ totalUsers: 3, totalSleepLogs: 15, totalJournalEntries: 3, activeUsers: 3 });

    const { before, after } = await rebuildAndSnapshot(service);
    expect(after).toEqual(before);
    expect(await adminStats(sql, new Date())).toEqual(tiles);
    // the three totals and a row a day of last activity: the replay's row for each event folded
    const rows = await sql<{ counter: string }[]>`select counter from admin_tallies`;
    expect(
      rows
        .filter((row) => row.counter !== 'active_users')
        .map((row) => row.counter)
        .sort(),
    ).toEqual(['journal_entries', 'sleep_logs', 'users']);
    expect(rows.length).toBeLessThanOrEqual(3 + 3);
  });
});
