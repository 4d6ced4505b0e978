import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { addDays } from '@sleepweave/contracts';
import { findDirectoryUser } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResearchExportConfig } from '../config.ts';
import { addMember, consent, night, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { csvRows, readZip } from '../test/zip.ts';
import { qaHeadline, writeDataFiles } from './build.ts';
import { ZipWriter } from './zip.ts';

let service: ResearchExport;
let real: string;
let demo: string;
const start = '2026-09-01';
const now = new Date('2026-11-22T02:00:00Z');

/** Polyester and linen nights, each phase complete. */
async function studyNights(userId: string, score: number) {
  for (const [phase, first, material] of [
    ['polyester', 1, '100% Polyester'],
    ['linen', 29, '100% Linen'],
  ] as const) {
    for (let day = first; day < first + 14; day++) {
      await service.producers.publish(
        testEnvelope(
          'study.sleep_log.recorded',
          night(userId, {
            date: addDays(start, day - 1),
            studyDay: day,
            phase,
            sleepwearMaterial: material,
            sleepScore: score + (day % 5),
          }),
        ),
      );
    }
  }
}

async function run(excludeDemo: boolean) {
  const zip = new ZipWriter(now);
  const findings = await writeDataFiles(service.deps.sql, zip, { now, minNights: 7, lateRecordDays: 3, excludeDemo });
  return { findings, files: await readZip(await zip.finish()) };
}

beforeAll(async () => {
  service = await startResearchExport();
  const a = await addMember(service);
  const b = randomUUID();
  await service.producers.publish(
    testEnvelope('identity.user.registered', {
      userId: b,
      email: 'day20@demo.sleepweave.test',
      firstName: 'Linda',
      lastName: 'Demo',
      dateOfBirth: '1970-01-01',
      timezone: 'Europe/London',
      hormonalStage: 'Menopause',
      profileImageUrl: null,
      role: 'participant',
      registeredAt: new Date().toISOString(),
    }),
  );
  await waitUntil(async () => (await findDirectoryUser(service.deps.sql, b)) !== undefined, 'the demo account known');
  await consent(service, a, start);
  await consent(service, b, start);
  await studyNights(a, 60);
  await studyNights(b, 70);
  const count = async (table: string) => (await service.deps.sql`select count(*)::int as n from ${service.deps.sql(table)}`)[0]!.n;
  await waitUntil(async () => (await count('research_nights')) === 56, 'every night');
  await waitUntil(async () => (await count('research_participants')) === 2, 'both enrolled');
  const ids = await service.deps.sql<{ user_id: string; research_id: string }[]>`select user_id, research_id from research_participants`;
  real = ids.find((r) => r.user_id === a)!.research_id;
  demo = ids.find((r) => r.user_id === b)!.research_id;
}, 60_000);

afterAll(async () => {
  await service?.cleanup();
});

describe('demo accounts in a research run (RESEARCH_EXCLUDE_DEMO)', () => {
  it('are analysed like anyone by default', async () => {
    const { files } = await run(false);
    const participants = csvRows(files.get('participants.csv'));
    expect(participants.map((p) => p.included_primary)).toEqual(['yes', 'yes']);
    expect(csvRows(files.get('phase_summary.csv')).filter((row) => row.research_id === demo)).toHaveLength(2);
  });

  it('are listed with the reason and analysed nowhere when excluded', async () => {
    const { files, findings } = await run(true);
    const byId = Object.fromEntries(csvRows(files.get('participants.csv')).map((p) => [p.research_id, p]));
    expect(byId[demo]).toMatchObject({
      nights_polyester: '14',
      nights_linen: '14',
      included_primary: 'no',
      exclusion_reason: 'demo account (RESEARCH_EXCLUDE_DEMO is true)',
    });
    expect(byId[real]).toMatchObject({ included_primary: 'yes', exclusion_reason: '' });
    // her nights are listed, not analysed; no phase mean, no comparison
    const nights = csvRows(files.get('nights.csv')).filter((row) => row.research_id === demo);
    expect(nights).toHaveLength(28);
    expect(new Set(nights.map((row) => row.analysed))).toEqual(new Set(['no']));
    expect(csvRows(files.get('phase_summary.csv')).map((row) => row.research_id)).toEqual([real, real]);
    const qa = csvRows(files.get('qa_report.csv')).filter((row) => row.research_id === demo);
    expect(qa.map((row) => [row.rule, row.action])).toEqual([['demo_account', 'participant excluded']]);
    expect(qaHeadline(findings)).toBe(
      '0 of 56 nights flagged by a QA rule (28 left out of the means); 1 of 2 participants not in the primary analysis (1 demo account (RESEARCH_EXCLUDE_DEMO)).',
    );
    // the e-mail that marks her goes into no file
    expect([...files.values()].map((f) => f.toString()).join('\n')).not.toContain('demo.sleepweave.test');
  });

  it('is one setting, off unless set', () => {
    expect(readResearchExportConfig({}).RESEARCH_EXCLUDE_DEMO).toBe(false);
    expect(readResearchExportConfig({ RESEARCH_EXCLUDE_DEMO: 'true' }).RESEARCH_EXCLUDE_DEMO).toBe(true);
    expect(readResearchExportConfig({ RESEARCH_EXCLUDE_DEMO: 'false' }).RESEARCH_EXCLUDE_DEMO).toBe(false);
    expect(() => readResearchExportConfig({ RESEARCH_EXCLUDE_DEMO: 'sometimes' })).toThrow('RESEARCH_EXCLUDE_DEMO: must be true or false');
  });
});
