/**
 * The admin read model's rounds in the background (startAdminUpkeep): a participant whose
 * kept compliance is for another night than her current one is brought up to date by the
 * next round, with no page asking for it; the dashboard's tallies are folded.
 */
import { currentNight } from '@sleepweave/contracts';
import { createLogger } from '@sleepweave/service-kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addMember, consent, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { adminStats } from './stats.ts';
import { startAdminUpkeep } from './upkeep.ts';

let service: ResearchExport;
beforeAll(async () => {
  service = await startResearchExport();
});
afterAll(async () => {
  await service?.cleanup();
});

it('brings a compliance kept for another day up to date at its next round', async () => {
  const { sql } = service.deps;
  const userId = await addMember(service);
  const tonight = currentNight('Europe/London', new Date());
  await consent(service, userId, tonight);
  const keptOn = async () =>
    (await sql<{ on: string | null }[]>`select compliance_on::text as on from admin_user_order where user_id = ${userId}`)[0]?.on ?? null;
  await waitUntil(async () => (await keptOn()) === tonight, 'her enrolment never reached the admin order');
  // as after 04:00 in her zone: kept for the night before
  await sql`update admin_user_order set compliance_on = compliance_on - 1 where user_id = ${userId}`;
  expect(await keptOn()).not.toBe(tonight);

  const refresh = startAdminUpkeep({ sql, logger: createLogger('test', 'silent') }, { intervalMs: 50 });
  try {
    await expect.poll(keptOn, { timeout: 5_000 }).toBe(tonight);
  } finally {
    await refresh.stop();
  }
});

it("folds the dashboard's tallies at its round", async () => {
  const { sql } = service.deps;
  const rows = async () => (await sql<{ rows: number }[]>`select count(*)::int as rows from admin_tallies`)[0]!.rows;
  const tiles = await adminStats(sql, new Date());
  await Promise.all([addMember(service), addMember(service), addMember(service)]);
  await waitUntil(
    async () => (await adminStats(sql, new Date())).totalUsers === tiles.totalUsers + 3,
    'the members never reached the directory',
  );
  const before = await rows();
  const upkeep = startAdminUpkeep({ sql, logger: createLogger('test', 'silent') }, { intervalMs: 50 });
  try {
    // a row a total (a member's registration added one of its own each)
    await expect.poll(rows, { timeout: 5_000 }).toBeLessThan(before);
  } finally {
    await upkeep.stop();
  }
  expect((await adminStats(sql, new Date())).totalUsers).toBe(tiles.totalUsers + 3);
});

it('stops at once, between rounds', async () => {
  const refresh = startAdminUpkeep({ sql: service.deps.sql, logger: createLogger('test', 'silent') }, { intervalMs: 60_000 });
  const started = performance.now();
  await refresh.stop();
  expect(performance.now() - started).toBeLessThan(1_000);
});
