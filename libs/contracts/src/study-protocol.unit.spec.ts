import { describe, expect, it, vi } from 'vitest';
import {
  CURRENT_PROTOCOL,
  addDays,
  calendarDateIn,
  consentText,
  daysBetween,
  currentNight,
  defaultLogNight,
  instantAt,
  lastEndedNight,
  latestLoggableDate,
  nightEndTime,
  savedBeforeItEnded,
  utcOffsetMs,
  wallClockIn,
  materialMismatchMessage,
  nightGuidance,
  studyDayOf,
  studyLength,
  studyStatus,
  studyStatusOn,
} from './study-protocol.ts';

const POLYESTER = 'Phase: Polyester (Day {n} of 14) — Tonight, please wear your polyester pyjamas.';
const WASHOUT = 'Phase: Washout (Day {n} of 14) — Tonight, wear cotton sleepwear to reset your baseline.';
const LINEN = 'Phase: Linen (Day {n} of 14) — Tonight, switch to your linen pyjamas.';
const msg = (template: string, n: number) => template.replace('{n}', String(n));

describe('studyStatus: the phase table of docs/product.md §4', () => {
  it.each([
    // day, phase, dayInPhase, material, banner, message, transition
    [null, 'polyester', 1, '100% Polyester', 'Polyester - Day 1 of 14', msg(POLYESTER, 1), null],
    [0, 'polyester', 1, '100% Polyester', 'Polyester - Day 1 of 14', msg(POLYESTER, 1), null],
    [1, 'polyester', 1, '100% Polyester', 'Polyester - Day 1 of 14', msg(POLYESTER, 1), null],
    [
      14,
      'polyester',
      14,
      '100% Polyester',
      'Polyester - Day 14 of 14',
      msg(POLYESTER, 14),
      'Tonight completes your 14 nights in polyester. Great work! Tomorrow night, begin your washout phase with cotton.',
    ],
    [15, 'washout', 1, '100% Cotton', 'Washout - Day 1 of 14', msg(WASHOUT, 1), null],
    [
      28,
      'washout',
      14,
      '100% Cotton',
      'Washout - Day 14 of 14',
      msg(WASHOUT, 14),
      'Tonight completes your washout. Tomorrow night, move into the linen phase for the final stretch.',
    ],
    [29, 'linen', 1, '100% Linen', 'Linen - Day 1 of 14', msg(LINEN, 1), null],
    [
      42,
      'linen',
      14,
      '100% Linen',
      'Linen - Day 14 of 14',
      msg(LINEN, 14),
      'Congratulations! Tonight completes all study phases. Thank you for your dedication and valuable contribution.',
    ],
    [43, 'completed', null, '100% Cotton', 'Study Complete', 'Study Complete — Thank you for completing the 42-day sleep study!', null],
  ] as const)('day %s: %s, day in phase %s, %s', (day, phase, dayInPhase, material, banner, message, transition) => {
    const status = studyStatus(day);
    expect(status).toMatchObject({ day, phase, dayInPhase, recommendedMaterial: material, banner, message, transition });
    expect(status.completed).toBe(phase === 'completed');
    expect(status.daysInPhase).toBe(phase === 'completed' ? null : 14);
    expect(status.started).toBe(day !== null && day >= 1);
  });

  it("gives one instruction on a transition night: that night in the phase's material, the next phase from tomorrow", () => {
    for (const day of [14, 28]) {
      const status = studyStatus(day);
      expect(status.message).toContain('Tonight,');
      expect(status.transition).toMatch(/^Tonight completes .*Tomorrow night, /);
      expect(status.transition).not.toMatch(/Tonight, /);
    }
    expect(studyStatus(42).transition).toContain('Tonight completes all study phases.');
  });

  it('is transition day only on the last day of each phase', () => {
    const transitions = Array.from({ length: 60 }, (_, i) => i - 5).filter((day) => studyStatus(day).transition !== null);
    expect(transitions).toEqual([14, 28, 42]);
  });

  it('lasts 42 days in three phases of 14 nights', () => {
    expect(studyLength()).toBe(42);
    expect(CURRENT_PROTOCOL.phases.map((p) => [p.name, p.nights, p.material])).toEqual([
      ['Polyester', 14, '100% Polyester'],
      ['Washout', 14, '100% Cotton'],
      ['Linen', 14, '100% Linen'],
    ]);
  });
});

describe('study day in her timezone', () => {
  it('counts whole calendar days from the start, the start being day 1', () => {
    expect(studyDayOf(null, '2026-05-01')).toBeNull();
    expect(studyDayOf('2026-05-01', '2026-05-01')).toBe(1);
    expect(studyDayOf('2026-05-01', '2026-04-30')).toBe(0);
    expect(studyDayOf('2026-05-01', '2026-06-11')).toBe(42);
    expect(studyDayOf('2024-02-28', '2024-03-01')).toBe(3); // leap day
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  // Each instant lies just after or before midnight in her zone on a night the clocks
  // change; an offset taken from the wrong side of the change lands on the wrong date.
  it.each([
    // Europe/London: BST starts 2026-03-29 01:00 UTC, ends 2026-10-25 01:00 UTC.
    ['Europe/London', '2026-03-28', '2026-03-29T00:30:00Z', '2026-03-29', 2],
    ['Europe/London', '2026-03-28', '2026-03-29T23:30:00Z', '2026-03-30', 3],
    ['Europe/London', '2026-10-24', '2026-10-24T23:30:00Z', '2026-10-25', 2],
    ['Europe/London', '2026-10-24', '2026-10-25T23:30:00Z', '2026-10-25', 2],
    ['Europe/London', '2026-10-24', '2026-10-26T00:10:00Z', '2026-10-26', 3],
    // America/New_York: EDT starts 2026-03-08 07:00 UTC, ends 2026-11-01 06:00 UTC.
    ['America/New_York', '2026-03-07', '2026-03-08T04:30:00Z', '2026-03-07', 1],
    ['America/New_York', '2026-03-07', '2026-03-09T03:50:00Z', '2026-03-08', 2],
    ['America/New_York', '2026-03-07', '2026-03-09T04:10:00Z', '2026-03-09', 3],
    ['America/New_York', '2026-10-31', '2026-11-01T03:50:00Z', '2026-10-31', 1],
    ['America/New_York', '2026-10-31', '2026-11-02T04:30:00Z', '2026-11-01', 2],
    ['America/New_York', '2026-10-31', '2026-11-02T05:10:00Z', '2026-11-02', 3],
  ])('%s, start %s, at %s: today is %s, day %i', (zone, start, instant, today, day) => {
    expect(calendarDateIn(zone, new Date(instant))).toBe(today);
    expect(studyDayOf(start, calendarDateIn(zone, new Date(instant)))).toBe(day);
  });

  it("reads the same date as Intl's own parts, every hour of a year, in zones far from UTC", () => {
    const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/London', 'America/New_York'];
    for (const timeZone of zones) {
      const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
      for (let hour = 0; hour < 366 * 24; hour++) {
        const instant = new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000);
        const p = Object.fromEntries(parts.formatToParts(instant).map((part) => [part.type, part.value]));
        expect(calendarDateIn(timeZone, instant)).toBe(`${p.year}-${p.month}-${p.day}`);
      }
    }
  });

  it('reads the parts when a runtime writes the date in another order', () => {
    // (`format` is a getter of a bound function)
    const format = vi.spyOn(Intl.DateTimeFormat.prototype as { format: unknown }, 'format', 'get').mockReturnValue(() => '2026-11-28');
    try {
      expect(calendarDateIn('Asia/Tokyo', new Date('2026-11-27T15:30:00Z'))).toBe('2026-11-28');
      expect(format).toHaveBeenCalled();
    } finally {
      format.mockRestore();
    }
  });

  it('gives the phase of a night from the start date', () => {
    expect(studyStatusOn('2026-03-07', '2026-03-20').banner).toBe('Polyester - Day 14 of 14');
    expect(studyStatusOn('2026-03-07', '2026-03-21').banner).toBe('Washout - Day 1 of 14');
    expect(studyStatusOn(null, '2026-03-21').banner).toBe('Polyester - Day 1 of 14');
  });

  it('lets her log up to tomorrow in her own timezone', () => {
    // 02:00 UTC on 1 May is still 30 April in New York.
    expect(latestLoggableDate('America/New_York', new Date('2026-05-01T02:00:00Z'))).toBe('2026-05-01');
    expect(latestLoggableDate('Europe/Paris', new Date('2026-05-01T02:00:00Z'))).toBe('2026-05-02');
  });
});

describe('which night: the night of D ends at 04:00 on D + 1, her wall clock', () => {
  // Sunday 22 November 2026 in New York is UTC-5 (EST).
  it.each([
    ['America/New_York', '2026-11-23T04:59:00Z', '2026-11-22', 23, '2026-11-21'], // Sun 23:59: Sat's night ended this morning
    ['America/New_York', '2026-11-23T05:00:00Z', '2026-11-23', 0, '2026-11-21'], // Mon 00:00: Sun's night is under way
    ['America/New_York', '2026-11-23T08:59:00Z', '2026-11-23', 3, '2026-11-21'], // Mon 03:59
    ['America/New_York', '2026-11-23T09:00:00Z', '2026-11-23', 4, '2026-11-22'], // Mon 04:00: Sun 22 -> Mon 23 has ended
    ['Europe/Paris', '2026-11-23T02:59:00Z', '2026-11-23', 3, '2026-11-21'], // 03:59 in Paris (UTC+1)
    ['Europe/Paris', '2026-11-23T03:00:00Z', '2026-11-23', 4, '2026-11-22'],
    // Europe/London springs forward at 01:00 UTC on 29 March 2026 (01:00 GMT -> 02:00 BST).
    ['Europe/London', '2026-03-29T02:59:00Z', '2026-03-29', 3, '2026-03-27'],
    ['Europe/London', '2026-03-29T03:00:00Z', '2026-03-29', 4, '2026-03-28'],
    // America/New_York falls back at 06:00 UTC on 1 November 2026 (02:00 EDT -> 01:00 EST).
    ['America/New_York', '2026-11-01T08:59:00Z', '2026-11-01', 3, '2026-10-30'],
    ['America/New_York', '2026-11-01T09:00:00Z', '2026-11-01', 4, '2026-10-31'],
  ])('%s at %s: %s %i h, last ended night %s', (zone, instant, date, hour, night) => {
    const now = new Date(instant);
    expect(wallClockIn(zone, now)).toMatchObject({ date, hour });
    expect(lastEndedNight(zone, now)).toBe(night);
    expect(currentNight(zone, now)).toBe(addDays(night, 1));
  });

  it('reads the minute on her wall clock too, in a zone off the hour', () => {
    // 09:29 UTC is 14:59 in Kolkata (UTC+5:30), 23:14 in Chatham (UTC+13:45, its summer time)
    expect(wallClockIn('Asia/Kolkata', new Date('2026-11-23T09:29:41Z'))).toEqual({ date: '2026-11-23', hour: 14, minute: 59, second: 41 });
    expect(wallClockIn('Pacific/Chatham', new Date('2026-11-23T09:29:00Z'))).toEqual({
      date: '2026-11-23',
      hour: 23,
      minute: 14,
      second: 0,
    });
  });

  it.each([
    // zone, night, when it ends: 04:00 on the next morning, her time
    ['Europe/London', '2026-10-02', '2026-10-03T03:00:00.000Z'], // summer time
    ['Europe/London', '2026-12-01', '2026-12-02T04:00:00.000Z'],
    ['America/New_York', '2026-10-31', '2026-11-01T09:00:00.000Z'], // the clocks went back at 02:00: 04:00 EST
    ['America/New_York', '2026-03-07', '2026-03-08T08:00:00.000Z'], // forward at 02:00: 04:00 EDT
    ['Europe/Helsinki', '2026-10-24', '2026-10-25T02:00:00.000Z'], // back at 04:00 EEST to 03:00 EET: 04:00 comes once, EET
    ['Europe/Helsinki', '2026-03-28', '2026-03-29T01:00:00.000Z'], // forward from 03:00 EET straight to 04:00 EEST
    ['Asia/Kolkata', '2026-06-01', '2026-06-01T22:30:00.000Z'],
    ['Pacific/Kiritimati', '2026-06-01', '2026-06-01T14:00:00.000Z'],
    ['Etc/GMT+12', '2026-06-01', '2026-06-02T16:00:00.000Z'],
  ])('in %s the night of %s ends at %s', (zone, night, end) => {
    expect(new Date(nightEndTime(zone, night)).toISOString()).toBe(end);
  });

  it.each([
    // zone, date, minutes after its midnight, the instant
    ['Europe/London', '2026-01-15', 21 * 60, '2026-01-15T21:00:00.000Z'],
    ['Europe/London', '2026-07-15', 21 * 60, '2026-07-15T20:00:00.000Z'],
    ['America/New_York', '2026-03-08', 7 * 60, '2026-03-08T11:00:00.000Z'], // summer time began at 02:00
    ['America/New_York', '2026-03-07', 7 * 60, '2026-03-07T12:00:00.000Z'],
    ['Europe/Paris', '2026-10-25', 30, '2026-10-24T22:30:00.000Z'],
    // skipped: 02:30 on 8 March in New York does not exist; read with the offset before, 03:30 EDT
    ['America/New_York', '2026-03-08', 2 * 60 + 30, '2026-03-08T07:30:00.000Z'],
    // twice: 01:30 on 25 October in London, first BST (00:30 UTC), then GMT (01:30 UTC); the first
    ['Europe/London', '2026-10-25', 90, '2026-10-25T00:30:00.000Z'],
    ['Australia/Lord_Howe', '2026-04-05', 90, '2026-04-04T14:30:00.000Z'], // +11 until 02:00, then +10:30; 01:30 comes twice
    ['Asia/Kolkata', '2026-06-01', 0, '2026-05-31T18:30:00.000Z'],
  ])('in %s, %s plus %i minutes is %s', (zone, date, minutes, instant) => {
    expect(new Date(instantAt(zone, date, minutes)).toISOString()).toBe(instant);
  });

  it('reads the offset of a zone at an instant, to the second', () => {
    expect(utcOffsetMs('Europe/London', Date.parse('2026-10-25T00:59:59Z'))).toBe(3_600_000);
    expect(utcOffsetMs('Europe/London', Date.parse('2026-10-25T01:00:00Z'))).toBe(0);
    expect(utcOffsetMs('America/Los_Angeles', Date.parse('2026-01-01T12:00:00.999Z'))).toBe(-8 * 3_600_000);
    expect(utcOffsetMs('Pacific/Chatham', Date.parse('2026-06-01T00:00:00Z'))).toBe(12.75 * 3_600_000);
  });

  it('ends each night when lastEndedNight starts to count it, every night of a year, in zones with and without summer time', () => {
    const zones = ['Europe/London', 'Europe/Paris', 'Europe/Helsinki', 'America/New_York', 'America/Los_Angeles', 'America/Santiago'];
    zones.push('America/Havana', 'Australia/Lord_Howe', 'Pacific/Auckland', 'Asia/Kolkata', 'Pacific/Chatham', 'Etc/GMT+12');
    for (const zone of zones) {
      for (let night = '2026-01-01'; night <= '2026-12-31'; night = addDays(night, 1)) {
        const end = nightEndTime(zone, night);
        expect([zone, night, lastEndedNight(zone, new Date(end))]).toEqual([zone, night, night]);
        expect([zone, night, lastEndedNight(zone, new Date(end - 1000)) < night]).toEqual([zone, night, true]);
      }
    }
  });

  it('tells a night last saved before it ended (at 04:00 on its morning, her clock) from one saved at or after', () => {
    // the night of 2 Oct ends at 03:00 UTC on the 3rd in London (summer time), 02:00 UTC in Paris
    expect(savedBeforeItEnded({ date: '2026-10-02', updatedAt: '2026-10-03T02:59:59.999Z' }, 'Europe/London')).toBe(true);
    expect(savedBeforeItEnded({ date: '2026-10-02', updatedAt: '2026-10-03T03:00:00.000Z' }, 'Europe/London')).toBe(false);
    expect(savedBeforeItEnded({ date: '2026-10-02', updatedAt: '2026-10-03T02:30:00.000Z' }, 'Europe/Paris')).toBe(false);
  });

  it("opens the log on the night that just ended, never before her study's first night", () => {
    const mondayMorning = new Date('2026-11-23T12:00:00Z'); // 07:00 in New York
    expect(defaultLogNight('America/New_York', mondayMorning, null)).toBe('2026-11-22');
    expect(defaultLogNight('America/New_York', mondayMorning, '2026-11-01')).toBe('2026-11-22');
    expect(defaultLogNight('America/New_York', mondayMorning, '2026-11-22')).toBe('2026-11-22');
    // She joined today: no night of her study has ended; the log opens on tonight, her first.
    expect(defaultLogNight('America/New_York', mondayMorning, '2026-11-23')).toBe('2026-11-23');
  });
});

describe('the consent page and the engine say the same', () => {
  it('writes the consent text from the protocol data', () => {
    const text = consentText();
    expect(text).toContain('Sleep Study Consent (version 1.0)');
    expect(text).toContain('Nights 1-14, Polyester (100% Polyester)');
    expect(text).toContain('Nights 15-28, Washout (100% Cotton)');
    expect(text).toContain('Nights 29-42, Linen (100% Linen)');
    for (const line of [...CURRENT_PROTOCOL.routine, ...CURRENT_PROTOCOL.room, ...CURRENT_PROTOCOL.bed]) {
      expect(text).toContain(line);
    }
    expect(text).toContain('Go to bed at 10:00 PM.');
    expect(text).toContain('21-23°C');
    expect(text.endsWith(CURRENT_PROTOCOL.agreement)).toBe(true);
  });

  it('words the material warning as docs/product.md §5 does for tonight, and asks her to check a night that is not', () => {
    expect(materialMismatchMessage('100% Linen')).toBe(
      "This doesn't match your current phase. Tonight should be 100% Linen. Please update to stay aligned.",
    );
    expect(materialMismatchMessage('100% Linen', 'last night')).toBe(
      "This doesn't match the phase of last night, which was for 100% Linen. Please check that this is what you wore.",
    );
    expect(materialMismatchMessage('100% Cotton', 'earlier')).toBe(
      "This doesn't match the phase of this night, which was for 100% Cotton. Please check that this is what you wore.",
    );
    expect(materialMismatchMessage('100% Linen', 'later')).toBe(
      "This doesn't match the phase of this night, which is for 100% Linen. Please check the date and the sleepwear.",
    );
  });

  describe('nightGuidance', () => {
    it("is the spec's phase message and the transition said that night, for tonight", () => {
      expect(nightGuidance(studyStatus(14), 'tonight')).toEqual({
        message: 'Phase: Polyester (Day 14 of 14) — Tonight, please wear your polyester pyjamas.',
        transition: 'Tonight completes your 14 nights in polyester. Great work! Tomorrow night, begin your washout phase with cotton.',
      });
      expect(nightGuidance(studyStatus(20), 'tonight')).toEqual({
        message: 'Phase: Washout (Day 6 of 14) — Tonight, wear cotton sleepwear to reset your baseline.',
        transition: null,
      });
    });

    it("on the morning after a phase's last night, is the spec's transition message, which says what tonight is", () => {
      expect(nightGuidance(studyStatus(14), 'last night')).toEqual({
        message: 'Phase: Polyester (Day 14 of 14) — Sleepwear for last night: 100% Polyester.',
        transition: "You've completed 14 nights in polyester. Great work! Tonight, begin your washout phase with cotton.",
      });
      expect(nightGuidance(studyStatus(28), 'last night')).toEqual({
        message: 'Phase: Washout (Day 14 of 14) — Sleepwear for last night: 100% Cotton.',
        transition: 'Your washout is complete. Tonight, move into the linen phase for the final stretch.',
      });
      expect(nightGuidance(studyStatus(42), 'last night').transition).toBe(
        "Congratulations! You've completed all study phases. Thank you for your dedication and valuable contribution.",
      );
      expect(nightGuidance(studyStatus(13), 'last night').transition).toBeNull();
    });

    it('names the sleepwear of a night before or after, with no transition and no "tonight"', () => {
      for (const when of ['earlier', 'later'] as const) {
        const { message, transition } = nightGuidance(studyStatus(29), when);
        expect(message).toBe('Phase: Linen (Day 1 of 14) — Sleepwear for this night: 100% Linen.');
        expect(nightGuidance(studyStatus(42), when).transition).toBeNull();
        expect(transition).toBeNull();
      }
    });

    it('is the study complete message after the study, whenever the night', () => {
      for (const when of ['tonight', 'last night', 'earlier', 'later'] as const) {
        expect(nightGuidance(studyStatus(43), when)).toEqual({
          message: 'Study Complete — Thank you for completing the 42-day sleep study!',
          transition: null,
        });
      }
    });

    it("keeps each phase's two transition messages in the spec's words and the study's", () => {
      const [polyester, washout, linen] = CURRENT_PROTOCOL.phases;
      expect(polyester!.transitionMessageAfter).toBe(
        "You've completed 14 nights in polyester. Great work! Tonight, begin your washout phase with cotton.",
      );
      expect(washout!.transitionMessageAfter).toBe('Your washout is complete. Tonight, move into the linen phase for the final stretch.');
      expect(linen!.transitionMessageAfter).toBe(
        "Congratulations! You've completed all study phases. Thank you for your dedication and valuable contribution.",
      );
    });
  });
});
