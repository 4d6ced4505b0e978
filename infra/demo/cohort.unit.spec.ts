import {
  addDays,
  calendarDateIn,
  isDemoEmail,
  nightEndTime,
  SleepLogFields,
  studyStatusOn,
  type SleepLogValues,
} from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { weakPasswordReason } from '../../services/identity/src/users/password-strength.ts';
import { parseDemoArgs } from './args.ts';
import { DEMO_PASSWORD, DEMO_STAGES, generateCohort, generateParticipant, IMPERFECTION_RATES, type DemoParticipant } from './cohort.ts';
import { fnv1a } from './random.ts';

const NOW = new Date('2026-03-10T14:30:00Z');
const big = generateCohort({ participants: 1000, seed: 'unit', now: NOW });
const nights = big.participants.flatMap((p) => p.nights);

const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

/** Her linen mean minus her polyester mean of a metric, over nights worn per protocol. */
function linenMinusPolyester(participant: DemoParticipant, key: keyof SleepLogValues): number | null {
  const of = (phase: string) =>
    participant.nights
      .filter((n) => n.phase === phase && !n.imperfections.includes('material_mismatch') && n.values[key] !== null)
      .map((n) => n.values[key] as number);
  const poly = of('polyester');
  const linen = of('linen');
  return poly.length >= 7 && linen.length >= 7 ? mean(linen) - mean(poly) : null;
}

function effect(key: keyof SleepLogValues) {
  const diffs = big.participants.map((p) => linenMinusPolyester(p, key)).filter((d): d is number => d !== null);
  const m = mean(diffs);
  const sd = Math.sqrt(diffs.reduce((sum, d) => sum + (d - m) ** 2, 0) / (diffs.length - 1));
  return { n: diffs.length, mean: m, dz: m / sd };
}

describe('the demo cohort generator', () => {
  it('gives the same cohort for the same seed and time, and another for another seed', () => {
    const again = generateCohort({ participants: 1000, seed: 'unit', now: NOW });
    expect(again).toEqual(big);
    const other = generateCohort({ participants: 40, seed: 'other', now: NOW });
    expect(other.participants.map((p) => p.nights.map((n) => n.values.sleepScore))).not.toEqual(
      big.participants.slice(0, 40).map((p) => p.nights.map((n) => n.values.sleepScore)),
    );
  });

  it('keeps each participant whatever the size of the cohort', () => {
    const small = generateCohort({ participants: 40, seed: 'unit', now: NOW });
    expect(small.participants).toEqual(big.participants.slice(0, 40));
    expect(generateParticipant('unit', 7, NOW)).toEqual(big.participants[6]);
  });

  it('spreads participants over the study: 10% not consented, 15% polyester, 20% washout, 20% linen, 35% completed', () => {
    const counts = Object.fromEntries(DEMO_STAGES.map((stage) => [stage, big.participants.filter((p) => p.stage === stage).length]));
    expect(counts).toEqual({ not_consented: 100, polyester: 150, washout: 200, linen: 200, completed: 350 });
    for (const p of big.participants) {
      if (p.stage === 'not_consented') {
        expect([p.consentAt, p.studyStartDate, p.studyDay, p.nights.length]).toEqual([null, null, null, 0]);
        continue;
      }
      const ranges = { polyester: [2, 14], washout: [15, 28], linen: [29, 42], completed: [43, 70] }[p.stage];
      expect(p.studyDay).toBeGreaterThanOrEqual(ranges[0]!);
      expect(p.studyDay).toBeLessThanOrEqual(ranges[1]!);
      // today, in her time zone, is her study day
      expect(studyStatusOn(p.studyStartDate, new Intl.DateTimeFormat('en-CA', { timeZone: p.timezone }).format(NOW)).day).toBe(p.studyDay);
    }
  });

  it('has the showcase accounts first: a day-20 participant with every night so far, completed, late linen, early polyester, not consented', () => {
    const [day20, completed, day38, day5, fresh] = big.participants;
    expect(day20).toMatchObject({ email: 'day20@demo.sleepweave.test', stage: 'washout', studyDay: 20 });
    expect(day20!.nights.map((n) => n.studyDay)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect(day20!.nights.every((n) => n.imperfections.length === 0)).toBe(true);
    expect(day20!.journal.length).toBeGreaterThan(5);
    expect(completed).toMatchObject({ email: 'completed@demo.sleepweave.test', stage: 'completed', studyDay: 50 });
    expect(day38).toMatchObject({ stage: 'linen', studyDay: 38 });
    expect(day5).toMatchObject({ stage: 'polyester', studyDay: 5 });
    expect(fresh).toMatchObject({ email: 'new@demo.sleepweave.test', stage: 'not_consented' });
  });

  it('marks every account as a demo account and uses a password the sign-up would accept', async () => {
    expect([big.admin, ...big.participants].every((a) => isDemoEmail(a.email))).toBe(true);
    expect(new Set(big.participants.map((p) => p.email)).size).toBe(1000);
    // as every demo participant's: her e-mail and name are not in it
    for (const account of [big.admin, ...big.participants.slice(0, 20)]) {
      const about = { email: account.email, firstName: account.firstName, lastName: account.lastName, dateOfBirth: null };
      expect(await weakPasswordReason(DEMO_PASSWORD, about)).toBeNull();
    }
    expect(await weakPasswordReason('password123', { email: 'a@b.co', firstName: null, lastName: null, dateOfBirth: null })).not.toBeNull();
    expect(DEMO_PASSWORD.length).toBeGreaterThanOrEqual(8);
  });

  it('logs a night only once it has ended, even when made in the small hours', () => {
    // 02:30 in New York, 01:30 in Chicago, 00:30 in Denver: last night has not ended there
    const smallHours = new Date('2026-03-10T07:30:00Z');
    const cohort = generateCohort({ participants: 300, seed: 'small-hours', now: smallHours });
    let beforeFour = 0;
    for (const p of cohort.participants) {
      for (const n of p.nights) expect(n.recordedAt.getTime()).toBeGreaterThanOrEqual(nightEndTime(p.timezone, n.date));
      const yesterday = addDays(calendarDateIn(p.timezone, smallHours), -1);
      if (['America/New_York', 'America/Chicago', 'America/Denver'].includes(p.timezone) && p.nights.length > 0) {
        beforeFour += 1;
        expect(p.nights.every((n) => n.date < yesterday)).toBe(true);
      }
    }
    expect(beforeFour).toBeGreaterThan(20);
  });

  it('writes only what the API accepts, in time order, nothing after now', () => {
    for (const p of big.participants) {
      expect(p.registeredAt.getTime()).toBeLessThan(NOW.getTime());
      if (p.consentAt) expect(p.consentAt.getTime()).toBeGreaterThan(p.registeredAt.getTime());
      for (const n of p.nights) {
        expect(SleepLogFields.safeParse(n.values).success).toBe(true);
        expect(n.recordedAt.getTime()).toBeGreaterThan(p.consentAt!.getTime());
        expect(n.recordedAt.getTime()).toBeLessThan(NOW.getTime());
        expect(n.studyDay).toBe(studyStatusOn(p.studyStartDate, n.date).day);
        if (n.revision) {
          expect(SleepLogFields.safeParse(n.revision.values).success).toBe(true);
          expect(n.revision.values).not.toEqual(n.values);
          expect(n.revision.at.getTime()).toBeGreaterThan(n.recordedAt.getTime());
          expect(n.revision.at.getTime()).toBeLessThan(NOW.getTime());
        }
      }
      for (const entry of p.journal) {
        expect(entry.at.getTime()).toBeGreaterThan(p.registeredAt.getTime());
        expect(entry.at.getTime()).toBeLessThan(NOW.getTime());
        expect(entry.affirmation + entry.gratitude + entry.forgiveness).not.toBe('');
      }
    }
  });

  it('has the documented imperfections at about their rates', () => {
    const share = (what: string) => nights.filter((n) => n.imperfections.includes(what as never)).length / nights.length;
    expect(nights.length).toBeGreaterThan(20_000);
    // rates are per night drawn; a few are skipped at the edges (a late or revised night that would be in the future)
    expect(share('ring_missing')).toBeCloseTo(IMPERFECTION_RATES.ringMissing, 2);
    expect(share('material_mismatch')).toBeCloseTo(IMPERFECTION_RATES.materialMismatch * (41 / 42), 2);
    expect(share('sleep_exceeds_bed')).toBeGreaterThan(0.004);
    expect(share('stages_exceed_sleep')).toBeGreaterThan(0.004);
    expect(share('efficiency_inconsistent')).toBeGreaterThan(0.006);
    expect(share('recorded_late')).toBeGreaterThan(0.02);
    expect(share('recorded_late')).toBeLessThan(IMPERFECTION_RATES.recordedLate);
    expect(share('revised')).toBeGreaterThan(0.03);
    expect(share('revised')).toBeLessThanOrEqual(IMPERFECTION_RATES.revised);
    // nights after day 42, and missed nights (some participants too few to be analysed)
    expect(nights.filter((n) => n.phase === 'completed').length).toBeGreaterThan(100);
    const completed = big.participants.filter((p) => p.stage === 'completed');
    const missed = completed.map((p) => 42 - p.nights.filter((n) => n.phase !== 'completed').length);
    expect(mean(missed)).toBeGreaterThan(2);
    // a few log so little that a phase has fewer than 7 nights (left out of the comparisons)
    const short = completed.filter((p) => ['polyester', 'linen'].some((phase) => p.nights.filter((n) => n.phase === phase).length < 7));
    expect(short.length).toBeGreaterThan(5);
    expect(short.length).toBeLessThan(completed.length * 0.1);
  });

  it('makes each imperfection what the QA rules look for', () => {
    for (const p of big.participants) {
      for (const n of p.nights) checkNight(p, n);
    }
    function checkNight(p: DemoParticipant, n: DemoParticipant['nights'][number]) {
      const v = n.values;
      const recommended = studyStatusOn(p.studyStartDate, n.date).recommendedMaterial;
      if (n.imperfections.includes('sleep_exceeds_bed')) expect(v.totalSleepMinutes!).toBeGreaterThan(v.timeInBedMinutes!);
      else if (v.totalSleepMinutes !== null) expect(v.totalSleepMinutes).toBeLessThanOrEqual(v.timeInBedMinutes!);
      if (n.imperfections.includes('stages_exceed_sleep')) expect(v.remMinutes! + v.deepMinutes!).toBeGreaterThan(v.totalSleepMinutes!);
      if (n.imperfections.includes('efficiency_inconsistent')) {
        expect(Math.abs(v.sleepEfficiency! - (100 * v.totalSleepMinutes!) / v.timeInBedMinutes!)).toBeGreaterThan(5);
      }
      if (n.imperfections.includes('ring_missing')) expect([v.sleepScore, v.avgHrv, v.totalSleepMinutes]).toEqual([null, null, null]);
      if (n.phase !== 'completed') expect(v.sleepwearMaterial !== recommended).toBe(n.imperfections.includes('material_mismatch'));
    }
  });

  it('has the built-in fabric effect in linen, with no effect where none was put', () => {
    const score = effect('sleepScore');
    expect(score.n).toBeGreaterThan(300);
    expect(score.mean).toBeGreaterThan(2.5);
    expect(score.mean).toBeLessThan(3.5);
    expect(effect('avgHrv').mean).toBeGreaterThan(2);
    expect(effect('restingHr').mean).toBeLessThan(-1);
    expect(effect('heatWakeups').mean).toBeLessThan(-0.25);
    // modest but clear within persons
    expect(score.dz).toBeGreaterThan(0.8);
    // small enough for the exact CI of d_z over a 1,000-person cohort (noncentrality up to 24)
    expect(score.dz * Math.sqrt(500)).toBeLessThan(24);
    // untouched metrics stay near zero
    expect(Math.abs(effect('timingScore').dz)).toBeLessThan(0.15);
    expect(Math.abs(effect('avgSpo2').dz)).toBeLessThan(0.15);
    expect(Math.abs(effect('latencyMinutes').dz)).toBeLessThan(0.15);
  });

  it('has community threads written by registered participants, in order', () => {
    const small = generateCohort({ participants: 40, seed: 'unit', now: NOW });
    expect(small.threads.filter((t) => t.name !== null).length).toBe(8);
    const byIndex = new Map(small.participants.map((p) => [p.index, p]));
    for (const thread of small.threads) {
      let previous = thread.createdAt?.getTime() ?? 0;
      for (const message of thread.messages) {
        expect(message.at.getTime()).toBeGreaterThan(byIndex.get(message.author)!.registeredAt.getTime());
        expect(message.at.getTime()).toBeGreaterThanOrEqual(previous);
        expect(message.at.getTime()).toBeLessThan(NOW.getTime());
        previous = message.at.getTime();
      }
    }
  });
});

describe('the demo helpers', () => {
  it('hashes seeds with FNV-1a', () => {
    // the published test vectors of 32-bit FNV-1a
    expect(fnv1a('') >>> 0).toBe(0x811c9dc5);
    expect(fnv1a('a') >>> 0).toBe(0xe40c292c);
    expect(fnv1a('foobar') >>> 0).toBe(0xbf9cf968);
  });

  it('reads the command line, and refuses what it cannot use', () => {
    expect(parseDemoArgs([])).toEqual({ participants: 40, seed: 'sleepweave', reset: false });
    expect(parseDemoArgs(['--participants', '1000', '--seed', '7'])).toEqual({ participants: 1000, seed: '7', reset: false });
    expect(parseDemoArgs(['--reset']).reset).toBe(true);
    expect(() => parseDemoArgs(['--participants', '0'])).toThrow('--participants must be a whole number from 1 to 5000');
    expect(() => parseDemoArgs(['--participants', '2.5'])).toThrow('--participants must be a whole number');
    expect(() => parseDemoArgs(['--participants', 'many'])).toThrow('--participants must be a whole number');
    expect(() => parseDemoArgs(['--seed', ' '])).toThrow('--seed must not be empty');
    expect(() => parseDemoArgs(['--reset', '--participants', '5'])).toThrow('--reset removes every demo account');
    expect(() => parseDemoArgs(['--colour'])).toThrow('Usage: npm run demo');
    expect(() => parseDemoArgs(['extra'])).toThrow('Unexpected extra');
  });
});
