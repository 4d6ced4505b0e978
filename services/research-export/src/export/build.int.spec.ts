import { testEnvelope } from '@sleepweave/bus/testing';
import { addDays } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, consent, night, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { csvRows, readZip } from '../test/zip.ts';
import { codebookRows, METRICS } from './columns.ts';
import { qaHeadline, writeDataFiles, type DataFindings } from './build.ts';
import { ZipWriter } from './zip.ts';

let service: ResearchExport;
let files: Map<string, Buffer>;
let findings: DataFindings;
let complete: string;
let sparse: string;
const start = '2026-09-01';
const now = new Date('2026-11-22T02:00:00Z'); // long after both studies ended

/** Publishes her nights of a phase: study days `from`..`to`, with a score that depends on the phase. */
async function nights(userId: string, phase: 'polyester' | 'washout' | 'linen', from: number, to: number, score: number) {
  const material = { polyester: '100% Polyester', washout: '100% Cotton', linen: '100% Linen' }[phase];
  for (let day = from; day <= to; day++) {
    await service.producers.publish(
      testEnvelope(
        'study.sleep_log.recorded',
        night(userId, {
          date: addDays(start, day - 1),
          studyDay: day,
          phase,
          sleepwearMaterial: material,
          sleepScore: score + (day % 3),
          totalSleepMinutes: 400,
          timeInBedMinutes: 460,
          heatWave: day % 2 === 0,
          comments: 'a private note',
        }),
      ),
    );
  }
}

beforeAll(async () => {
  service = await startResearchExport();
  const a = await addMember(service, { dateOfBirth: '1972-03-15', hormonalStage: 'Menopause' });
  const b = await addMember(service, { dateOfBirth: null, hormonalStage: null });
  await consent(service, a, start);
  await consent(service, b, start);
  await nights(a, 'polyester', 1, 14, 70);
  await nights(a, 'washout', 15, 28, 75);
  await nights(a, 'linen', 29, 42, 80);
  await nights(b, 'polyester', 1, 5, 60); // too few
  await nights(b, 'linen', 29, 42, 65);
  // a night after her 42 days: in nights.csv, in no phase mean
  await service.producers.publish(
    testEnvelope('study.sleep_log.recorded', night(b, { date: addDays(start, 42), studyDay: 43, phase: 'completed', sleepScore: 50 })),
  );
  const count = async (table: string) => (await service.deps.sql`select count(*)::int as n from ${service.deps.sql(table)}`)[0]!.n;
  await waitUntil(async () => (await count('research_nights')) === 14 * 3 + 5 + 14 + 1, 'every night');
  await waitUntil(async () => (await count('research_participants')) === 2, 'both enrolled');
  const ids = await service.deps.sql<{ user_id: string; research_id: string }[]>`select user_id, research_id from research_participants`;
  complete = ids.find((r) => r.user_id === a)!.research_id;
  sparse = ids.find((r) => r.user_id === b)!.research_id;

  const zip = new ZipWriter(now);
  findings = await writeDataFiles(service.deps.sql, zip, { now, minNights: 7, lateRecordDays: 3 });
  files = await readZip(await zip.finish());
}, 60_000);

afterAll(async () => {
  await service?.cleanup();
});

describe('the data files of a research run', () => {
  it('are all there and every CSV parses, its header as the codebook says', () => {
    expect([...files.keys()].sort()).toEqual(['codebook.csv', 'nights.csv', 'participants.csv', 'phase_summary.csv', 'qa_report.csv']);
    const codebook = codebookRows();
    for (const name of ['nights.csv', 'participants.csv', 'phase_summary.csv', 'qa_report.csv', 'codebook.csv']) {
      const header = files.get(name)!.toString().split('\n')[0]!.split(',');
      expect(header, name).toEqual(codebook.filter(([file]) => file === name).map(([, column]) => column));
      csvRows(files.get(name));
    }
  });

  it('name participants by research id only, in 5-year age bands, with nights per phase and inclusion', () => {
    const participants = csvRows(files.get('participants.csv'));
    const byId = Object.fromEntries(participants.map((p) => [p.research_id, p]));
    expect(participants).toHaveLength(2);
    expect(byId[complete]).toMatchObject({ age_band: '50-54', hormonal_stage: 'Menopause', consent_date: start });
    expect(byId[sparse]).toMatchObject({ age_band: '', hormonal_stage: '' });
    expect(byId[complete]).toMatchObject({
      nights_polyester: '14',
      nights_washout: '14',
      nights_linen: '14',
      included_primary: 'yes',
      exclusion_reason: '',
    });
    expect(byId[sparse]).toMatchObject({ nights_polyester: '5', nights_washout: '0', nights_after_study: '1', included_primary: 'no' });
    expect(byId[sparse]!.exclusion_reason).toBe('too few analysed nights: polyester 5 (7 needed in each)');
    const everything = [...files.values()].map((f) => f.toString()).join('\n');
    expect(everything).not.toMatch(/@example\.com|Ines|Okafor|1972-03-15|a private note/);
    const userIds = findings.participants.map((p) => p.userId);
    for (const id of userIds) expect(everything).not.toContain(id);
  });

  it('give one row per night, and phase means of analysed nights (a yes/no as a share)', () => {
    expect(csvRows(files.get('nights.csv'))).toHaveLength(14 * 3 + 5 + 14 + 1);
    const summary = csvRows(files.get('phase_summary.csv'));
    const linen = summary.find((row) => row.research_id === complete && row.phase === 'linen')!;
    // days 29..42: score 80 + day % 3; heat wave on even days (7 of 14)
    const scores = Array.from({ length: 14 }, (_, i) => 80 + ((29 + i) % 3));
    expect(Number(linen.sleep_score)).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / 14, 7); // rounded to 10 significant digits
    expect(Number(linen.heat_wave)).toBe(0.5);
    expect(linen.nights).toBe('14');
    expect(linen.avg_hrv).toBe(''); // never recorded
    expect(summary.filter((row) => row.research_id === sparse).map((row) => row.phase)).toEqual(['polyester', 'linen']);
    expect(METRICS.length).toBeGreaterThan(10);
  });

  it('report every QA hit: nights after the study, too few nights, missing nights', () => {
    const qa = csvRows(files.get('qa_report.csv'));
    const rules = (id: string) => qa.filter((row) => row.research_id === id).map((row) => `${row.rule}:${row.phase}`);
    expect(rules(sparse)).toEqual(
      expect.arrayContaining([
        'after_study:completed',
        'missing_nights:polyester',
        'missing_nights:washout',
        'too_few_nights:polyester',
        'too_few_nights:washout',
      ]),
    );
    expect(rules(complete)).toEqual([]);
    expect(qaHeadline(findings)).toBe(
      '1 of 62 nights flagged by a QA rule (1 left out of the means); 1 of 2 participants not in the primary analysis (too few nights in polyester or linen).',
    );
  });

  it('carry any text through COPY and back out of the CSV as it was stored', async () => {
    const odd = 'Tired,\t"very"\nback\\slash\r\nZoë – ünïcödé';
    await service.deps.sql`update research_nights set morning_mood = ${odd} where study_day = 43`;
    const zip = new ZipWriter(now);
    await writeDataFiles(service.deps.sql, zip, { now, minNights: 7, lateRecordDays: 3 });
    const again = await readZip(await zip.finish());
    const night = csvRows(again.get('nights.csv')).find((row) => row.study_day === '43')!;
    expect(night.morning_mood).toBe(odd);
    expect(night.research_id).toBe(sparse);
    const hit = csvRows(again.get('qa_report.csv')).find((row) => row.rule === 'out_of_range' && row.field === 'morning_mood')!;
    expect(hit.value).toBe(odd);
  });

  it('count as missing only nights that had ended for her at the run, against the nights logged up to then', async () => {
    // Two members in London, three nights into their study. At the 02:00 UTC run it is 02:00
    // there: the night of the 12th ends at 04:00, so two nights are due, not three.
    const studyStart = '2026-11-10';
    const run = new Date('2026-11-13T02:00:00Z');
    const onTime = await addMember(service);
    const ahead = await addMember(service);
    await consent(service, onTime, studyStart);
    await consent(service, ahead, studyStart);
    const publish = (userId: string, day: number) =>
      service.producers.publish(
        testEnvelope(
          'study.sleep_log.recorded',
          night(userId, { date: addDays(studyStart, day - 1), studyDay: day, phase: 'polyester', recordedAt: '2026-11-12T23:00:00.000Z' }),
        ),
      );
    await publish(onTime, 1);
    await publish(onTime, 2);
    await publish(ahead, 1);
    await publish(ahead, 3); // the night of the 12th, logged before it ended: it fills no gap
    const ids = async () =>
      await service.deps.sql<{ user_id: string; research_id: string }[]>`
        select p.user_id, p.research_id from research_participants p
        where p.user_id in ${service.deps.sql([onTime, ahead])}
          and (select count(*) from research_nights n where n.user_id = p.user_id) = 2`;
    await waitUntil(async () => (await ids()).length === 2, 'their nights');
    const researchId = Object.fromEntries((await ids()).map((r) => [r.user_id, r.research_id]));
    const zip = new ZipWriter(run);
    const found = await writeDataFiles(service.deps.sql, zip, { now: run, minNights: 7, lateRecordDays: 3 });
    const written = await readZip(await zip.finish());
    const qa = csvRows(written.get('qa_report.csv'));
    const missing = (userId: string) =>
      qa
        .filter((row) => row.research_id === researchId[userId] && row.rule === 'missing_nights')
        .map((row) => `${row.phase}: ${row.detail}`);
    expect(missing(onTime)).toEqual([]);
    expect(missing(ahead)).toEqual(['polyester: 1 of 2 nights so far not logged']);
    // and, recorded before it ended and never changed, it is in no mean (its reason read from COPY's recorded and changed times)
    expect(qa.filter((row) => row.rule === 'before_night_ended').map((row) => [row.research_id, row.date, row.detail])).toEqual([
      [researchId[ahead], '2026-11-12', 'recorded 5 h before the night ended'],
    ]);
    // Both are three nights into their study: not in the analysis yet, but not dropped out either
    const reason = Object.fromEntries(csvRows(written.get('participants.csv')).map((row) => [row.research_id, row.exclusion_reason]));
    expect(reason[researchId[onTime]!]).toBe('still in the study, too few analysed nights so far: polyester 2, linen 0 (7 needed in each)');
    expect(reason[researchId[ahead]!]).toBe('still in the study, too few analysed nights so far: polyester 1, linen 0 (7 needed in each)');
    // ... nor have they completed it; the member whose 42 nights ended long ago has
    const studyComplete = Object.fromEntries(csvRows(written.get('participants.csv')).map((row) => [row.research_id, row.study_complete]));
    expect([studyComplete[researchId[onTime]!], studyComplete[researchId[ahead]!], studyComplete[complete]]).toEqual(['no', 'no', 'yes']);
    // the member who logged 5 polyester nights of 14, long ago, is short for good
    expect(reason[sparse]).toBe('too few analysed nights: polyester 5 (7 needed in each)');
    const tooFew = qa.filter((row) => row.research_id === researchId[onTime] && row.rule === 'too_few_nights');
    expect(tooFew.map((row) => `${row.phase}: ${row.detail}`)).toEqual([
      "polyester: 2 analysed nights, 7 needed; 12 of the phase's 14 nights still to come",
      "washout: 0 analysed nights, 7 needed; 14 of the phase's 14 nights still to come",
      "linen: 0 analysed nights, 7 needed; 14 of the phase's 14 nights still to come",
    ]);
    expect(qaHeadline(found)).toBe(
      '2 of 66 nights flagged by a QA rule (2 left out of the means); 3 of 4 participants not in the primary analysis (2 still in the study, 1 too few nights in polyester or linen).',
    );
  });

  it("count a missed night she may still log late toward 'still in the study', while her study runs", async () => {
    // Day 20 of their study at the run: polyester (nights 1-14) has ended for both, with 5 analysed nights each
    const studyStart = '2026-06-01';
    const run = new Date('2026-06-20T12:00:00Z');
    const missed = await addMember(service); // 9 polyester nights not logged: she may still log them
    const worn = await addMember(service); // the other 9 logged, in another fabric: nothing left to log
    for (const member of [missed, worn]) await consent(service, member, studyStart);
    const publish = (userId: string, day: number, material: string) =>
      service.producers.publish(
        testEnvelope(
          'study.sleep_log.recorded',
          night(userId, { date: addDays(studyStart, day - 1), studyDay: day, phase: 'polyester', sleepwearMaterial: material }),
        ),
      );
    for (let day = 1; day <= 5; day++) {
      await publish(missed, day, '100% Polyester');
      await publish(worn, day, '100% Polyester');
    }
    for (let day = 6; day <= 14; day++) await publish(worn, day, '100% Linen');
    const ids = async () =>
      await service.deps.sql<{ user_id: string; research_id: string; nights: number }[]>`
        select p.user_id, p.research_id, (select count(*)::int from research_nights n where n.user_id = p.user_id) as nights
        from research_participants p where p.user_id in ${service.deps.sql([missed, worn])}`;
    await waitUntil(
      async () =>
        (await ids())
          .map((r) => r.nights)
          .sort((a, b) => a - b)
          .join() === '5,14',
      'their nights',
    );
    const researchId = Object.fromEntries((await ids()).map((r) => [r.user_id, r.research_id]));
    const zip = new ZipWriter(run);
    await writeDataFiles(service.deps.sql, zip, { now: run, minNights: 7, lateRecordDays: 3 });
    const reason = Object.fromEntries(
      csvRows((await readZip(await zip.finish())).get('participants.csv')).map((row) => [row.research_id, row.exclusion_reason]),
    );
    expect(reason[researchId[missed]!]).toBe('still in the study, too few analysed nights so far: polyester 5, linen 0 (7 needed in each)');
    expect(reason[researchId[worn]!]).toBe('too few analysed nights: polyester 5, linen 0 (7 needed in each)');
  });

  it('judge each night by the zone she logged it in, after she has moved to another', async () => {
    // Logged in Paris at 07:00 the morning after (06:00 UTC), when her night had ended there;
    // she has since set her zone to Los Angeles, where 06:00 UTC is 23:00 the evening before.
    const studyStart = '2026-03-01';
    const traveller = await addMember(service);
    await consent(service, traveller, studyStart);
    const date = '2026-03-10';
    const logged = (timezone?: string) =>
      night(traveller, {
        date,
        studyDay: 10,
        phase: 'polyester',
        recordedAt: '2026-03-11T06:00:00.000Z',
        ...(timezone ? { timezone } : {}),
      });
    await service.producers.publish(testEnvelope('study.sleep_log.recorded', logged('Europe/Paris')));
    await service.producers.publish(
      testEnvelope('identity.user.profile_updated', {
        userId: traveller,
        firstName: 'Ines',
        lastName: 'Okafor',
        dateOfBirth: '1971-06-01',
        timezone: 'America/Los_Angeles',
        hormonalStage: 'Menopause',
        profileImageUrl: null,
        updatedAt: new Date().toISOString(),
      }),
    );
    const stored = async () =>
      await service.deps.sql<{ timezone: string | null; moved: boolean }[]>`
        select n.timezone, d.timezone = 'America/Los_Angeles' as moved
        from research_nights n join user_directory d using (user_id) where n.user_id = ${traveller}`;
    await waitUntil(async () => (await stored())[0]?.moved === true, 'her night and her move');
    expect((await stored())[0]!.timezone).toBe('Europe/Paris');
    const qaOf = async () => {
      const run = new Date('2026-04-20T02:00:00Z');
      const zip = new ZipWriter(run);
      await writeDataFiles(service.deps.sql, zip, { now: run, minNights: 7, lateRecordDays: 3, userId: traveller });
      return csvRows((await readZip(await zip.finish())).get('qa_report.csv')).filter((row) => row.date === date);
    };
    expect(await qaOf()).toEqual([]);
    // a night that came without its zone (logged before study sent it) is judged in her zone at the run
    await service.deps.sql`update research_nights set timezone = null where user_id = ${traveller}`;
    expect((await qaOf()).map((row) => [row.rule, row.detail])).toEqual([['before_night_ended', 'recorded 5 h before the night ended']]);
  });
});
