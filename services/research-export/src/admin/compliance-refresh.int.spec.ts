/**
 * The admin list's compliance kept up to date in the background (startComplianceRefresh):
 * a participant whose kept compliance is for another night than her current one is brought up to
 * date by the next round, with no page asking for it.
 */
import { currentNight } from '@sleepweave/contracts';
import { createLogger } from '@sleepweave/service-kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addMember, consent, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { startComplianceRefresh } from './user-order.ts';

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

  const refresh = startComplianceRefresh({ sql, logger: createLogger('test', 'silent') }, { intervalMs: 50 });
  try {
    await expect.poll(keptOn, { timeout: 5_000 }).toBe(tonight);
  } finally {
    await refresh.stop();
  }
});

it('stops at once, between rounds', async () => {
  const refresh = startComplianceRefresh({ sql: service.deps.sql, logger: createLogger('test', 'silent') }, { intervalMs: 60_000 });
  const started = performance.now();
  await refresh.stop();
  expect(performance.now() - started).toBeLessThan(1_000);
});
