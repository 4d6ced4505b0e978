/**
 * A whole research run through the service as it runs (its own worker): the zip holds every
 * file, every CSV parses, the codebook covers every column, the primary comparison matches a
 * computation by hand, and a participant's own export holds her data only.
 */
import { ORDER_CAVEAT } from './build.ts';
import { QA_RULES } from './qa.ts';
import { NOT_COMPUTABLE } from '../statistics/methods.ts';
import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { addDays } from '@sleepweave/contracts';
import { pdfText } from '@sleepweave/documents/testing';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, consent, night, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { csvRows, readZip } from '../test/zip.ts';
import { buildPersonalZip } from './personal-zip.ts';
import { buildResearchZip } from './research-zip.ts';

let service: ResearchExport;
let files: Map<string, Buffer>;
const members: string[] = [];
const start = '2026-08-03';
const admin = bearer(randomUUID(), 'admin');

beforeAll(async () => {
  service = await startResearchExport();
  // Six participants; linen nights score higher by a different amount for each.
  for (let p = 0; p < 6; p++) {
    const userId = await addMember(service, { dateOfBirth: `${1965 + p}-05-05` });
    members.push(userId);
    await consent(service, userId, start);
    for (const [phase, from, material, base] of [
      ['polyester', 1, '100% Polyester', 70],
      ['washout', 15, '100% Cotton', 72],
      ['linen', 29, '100% Linen', 72 + p],
    ] as const) {
      for (let day = from; day < from + 14; day++) {
        await service.producers.publish(
          testEnvelope(
            'study.sleep_log.recorded',
            night(userId, {
              date: addDays(start, day - 1),
              studyDay: day,
              phase,
              sleepwearMaterial: material,
              sleepScore: base + ((day * (p + 1)) % 5),
              restingHr: 60 + (day % 4),
            }),
          ),
        );
      }
    }
  }
  const count = async () => (await service.deps.sql`select count(*)::int as n from research_nights`)[0]!.n;
  await waitUntil(async () => (await count()) === 6 * 42, 'every night', 30_000);
  await waitUntil(async () => (await service.deps.sql`select 1 from research_participants`).length === 6, 'all enrolled');

  const posted = await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} });
  const { id } = posted.json();
  await waitUntil(
    async () => (await service.deps.sql`select status from research_runs where id = ${id}`)[0]?.status === 'finished',
    'the run to finish',
    30_000,
  );
  const download = await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}/download`, headers: admin });
  files = await readZip(download.rawPayload);
}, 90_000);

afterAll(async () => {
  await service?.cleanup();
});

/**
 * A CSV of the zips is ASCII: Excel reads a CSV without a byte order mark in the machine's
 * code page ("−" became "âˆ’"), and base R's read.csv keeps a mark in the first column's
 * name. No free text of hers is in them, so only our own words could break it.
 */
function expectAscii(name: string, content: Buffer) {
  expect(content.toString('utf8').match(/[^\t\n\r -~]/gu) ?? [], name).toEqual([]);
}

describe('a research run', () => {
  it('writes every file; every CSV parses; the codebook covers every column of every CSV', () => {
    expect([...files.keys()].sort()).toEqual([
      'README.md',
      'analysis.R',
      'codebook.csv',
      'comparisons.csv',
      'nights.csv',
      'participants.csv',
      'phase_summary.csv',
      'qa_report.csv',
      'qa_report.md',
      'report.pdf',
    ]);
    const codebook = csvRows(files.get('codebook.csv'));
    expect([...new Set(codebook.map((row) => row.file))].sort()).toEqual([...files.keys()].filter((name) => name.endsWith('.csv')).sort());
    for (const [name, content] of files) {
      if (!name.endsWith('.csv')) continue;
      expectAscii(name, content);
      csvRows(content);
      const header = content.toString().split('\n')[0]!.split(',');
      expect(header, name).toEqual(codebook.filter((row) => row.file === name).map((row) => row.column));
    }
    expect(files.get('report.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
    const readme = files.get('README.md')!.toString();
    expect(readme).toContain('exact noncentral t interval');
    // what a later change of a participant's data is in
    expect(readme).toContain('a night saved or changed later, a consent given later, is in the next run');
    // the design's limit, and how to tell completers (an interim run)
    expect(readme).toContain(ORDER_CAVEAT);
    expect(readme).toContain("participants.csv's `study_complete`");
    // the answers the form starts at a value
    expect(readme).toContain('`sleep_quality_1_10` (7), `dream_recall` (no), `heat_wave` (no), `heat_wakeups` (0)');
    // every QA rule that leaves a night or a value out, or flags it, is named where the README says so
    const said = (start: string) => readme.split('\n').find((line) => line.startsWith(start)) ?? '';
    for (const rule of Object.values(QA_RULES)) {
      if (rule.action === 'night excluded') expect(said('- A night enters her phase means'), rule.id).toContain(`\`${rule.id}\``);
      if (rule.action === 'flag') expect(said('- Flagged, not excluded'), rule.id).toContain(`\`${rule.id}\``);
    }
    expect(said('- A night enters her phase means')).toContain('`before_night_ended`');
    // the late rule's days named with that rule, not after the list (where they read as the last rule's)
    expect(said('- Flagged, not excluded')).toMatch(/; `recorded_late` is a night first recorded more than \d+ days after its morning\.$/);
    // every reason a value can be empty, in the note's words
    for (const reason of Object.values(NOT_COMPUTABLE))
      expect(said('- **Empty values.**'), reason).toContain(reason.replace(/^not computable: /, ''));
  });

  it('compares polyester and linen as a computation by hand does', () => {
    const summary = csvRows(files.get('phase_summary.csv'));
    const ids = [...new Set(summary.map((row) => row.research_id!))].sort();
    const phaseMean = (id: string, phase: string) => Number(summary.find((r) => r.research_id === id && r.phase === phase)!.sleep_score);
    const differences = ids.map((id) => phaseMean(id, 'linen') - phaseMean(id, 'polyester'));
    const row = csvRows(files.get('comparisons.csv')).find((r) => r.comparison === 'polyester_vs_linen' && r.metric === 'sleep_score')!;
    expect(Number(row.n_pairs)).toBe(6);
    expect(Number(row.mean_difference)).toBeCloseTo(mean(differences), 10);
    expect(Number(row.sd_difference)).toBeCloseTo(sampleStandardDeviation(differences), 10);
    expect(Number(row.d_z)).toBeCloseTo(mean(differences) / sampleStandardDeviation(differences), 10);
    expect(Number(row.t)).toBeCloseTo((mean(differences) / sampleStandardDeviation(differences)) * Math.sqrt(6), 10);
    expect(Number(row.d_z_ci95_low)).toBeLessThan(Number(row.d_z));
    expect(Number(row.d_z_ci95_high)).toBeGreaterThan(Number(row.d_z));
    const hrv = csvRows(files.get('comparisons.csv')).find((r) => r.comparison === 'polyester_vs_linen' && r.metric === 'avg_hrv')!;
    expect(hrv.n_pairs).toBe('0');
    expect(hrv.d_z).toBe('');
    expect(hrv.note).toContain('not computable');
  });

  it("tells the admin screen in a sentence why a metric's d_z is empty", async () => {
    const runs = await service.app.inject({ method: 'GET', url: '/api/admin/research/runs', headers: admin });
    const { primary } = runs.json()[0].summary as { primary: { metric: string; dz: number | null; note: string | null }[] };
    expect(primary.find((effect) => effect.metric === 'avg_hrv')).toMatchObject({ dz: null, note: 'No complete pairs.' });
    expect(primary.find((effect) => effect.metric === 'sleep_score')).toMatchObject({ note: null });
    // and the report, below its plot
    const report = (await pdfText(files.get('report.pdf')!)).replace(/\s+/g, ' ');
    expect(report).toContain('Average HRV: d_z not computable: no complete pairs.');
    expect(report).not.toContain('Sleep score: d_z not computable');
    expect(report).toContain(ORDER_CAVEAT);
  });

  it('dates her zip on her calendar (London), not in UTC', async () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (summer time)
    const { fileName, zip } = await buildPersonalZip(service.context, members[0]!, new Date('2026-06-30T23:30:00Z'));
    expect(fileName).toBe('sleepweave-research-export-2026-07-01.zip');
    // and its README says when, on her clock (it was an ISO time in UTC)
    expect((await readZip(zip)).get('README.md')!.toString()).toContain('Made 1 July 2026, 00:30 (Europe/London).');
  });

  it("dates a run's zip and report on the study's calendar (RESEARCH_EXPORT_TIMEZONE), not in UTC", async () => {
    // 13:00 UTC on 1 March is 02:00 on 2 March in Auckland: the nightly run of 2 March there
    const context = { ...service.context, config: { ...service.context.config, RESEARCH_EXPORT_TIMEZONE: 'Pacific/Auckland' } };
    const { fileName } = await buildResearchZip(context, new Date('2026-03-01T13:00:00Z'));
    expect(fileName).toBe('sleepweave-research-2026-03-02-020000.zip');
    // queued at 23:59 there (the nightly run of 2 March at a RESEARCH_EXPORT_TIME of 23:59), started after midnight
    const late = await buildResearchZip(context, new Date('2026-03-02T11:01:00Z'), new Date('2026-03-02T10:59:07Z'));
    expect(late.fileName).toBe('sleepweave-research-2026-03-02-235907.zip');
  });

  it('gives a participant her own data only, under her research id', async () => {
    const own = await service.app.inject({ method: 'GET', url: '/api/research/export', headers: bearer(members[0]!) });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toMatch(/^attachment; filename="sleepweave-research-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    const mine = await readZip(own.rawPayload);
    const [{ research_id: hers }] = (await service.deps
      .sql`select research_id from research_participants where user_id = ${members[0]!}`) as unknown as [{ research_id: string }];
    const ids = new Set(csvRows(mine.get('nights.csv')).map((row) => row.research_id));
    expect([...ids]).toEqual([hers]);
    expect(csvRows(mine.get('participants.csv'))).toHaveLength(1);
    const comparison = csvRows(mine.get('my_comparison.csv')).find((row) => row.metric === 'sleep_score')!;
    expect(Number(comparison.difference)).toBeCloseTo(Number(comparison.mean_linen!) - Number(comparison.mean_polyester!), 10);
    // her means are phase_summary.csv's, to the last digit
    const summary = csvRows(mine.get('phase_summary.csv'));
    const phaseRow = (phase: string) => summary.find((row) => row.phase === phase)!;
    for (const row of csvRows(mine.get('my_comparison.csv'))) {
      expect(row.mean_polyester).toBe(phaseRow('polyester')[row.metric!]);
      expect(row.mean_linen).toBe(phaseRow('linen')[row.metric!]);
    }
    expect(Number(comparison.nights_polyester)).toBeGreaterThan(0);
    const codebook = csvRows(mine.get('codebook.csv'));
    expect(codebook.filter((row) => row.file === 'my_comparison.csv').map((row) => row.column)).toEqual(Object.keys(comparison));
    // it describes her zip's files, not the research zip's paired comparisons
    const csvFiles = (zip: Map<string, Buffer>) => [...zip.keys()].filter((name) => name.endsWith('.csv')).sort();
    expect([...new Set(codebook.map((row) => row.file))].sort()).toEqual(csvFiles(mine));
    for (const name of csvFiles(mine)) expectAscii(name, mine.get(name)!);

    const stranger = await service.app.inject({ method: 'GET', url: '/api/research/export', headers: bearer(randomUUID()) });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe('You have not joined the sleep study yet, so there is nothing to export.');
  });
});
