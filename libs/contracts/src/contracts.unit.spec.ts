import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CalendarDate } from './common.ts';
import { parseEnvelope } from './events.ts';
import { CreateMessageRequest } from './community.ts';
import { LoginRequest, RegisterRequest, ResetPasswordRequest, UpdateProfileRequest } from './identity.ts';
import { SleepExportQuery } from './sleep-export.ts';
import { SleepLogDate } from './study.ts';

const valid = {
  email: '  Maya@Example.COM ',
  password: 'long enough',
  confirmPassword: 'long enough',
  firstName: ' Maya ',
  lastName: 'Lindqvist',
  dateOfBirth: '1972-04-18',
  timezone: 'America/New_York',
  hormonalStage: 'Fertile',
};

describe('RegisterRequest', () => {
  it('normalises e-mail and names', () => {
    const parsed = RegisterRequest.parse(valid);
    expect(parsed.email).toBe('maya@example.com');
    expect(parsed.firstName).toBe('Maya');
  });

  it("takes the spec's defaults for a time zone and a hormonal stage left out, and refuses one not offered", () => {
    const { timezone: _timezone, hormonalStage: _stage, ...without } = valid;
    const parsed = RegisterRequest.parse(without);
    expect([parsed.timezone, parsed.hormonalStage]).toEqual(['America/New_York', 'Fertile']);
    expect(RegisterRequest.safeParse({ ...valid, timezone: 'Asia/Kathmandu' }).success).toBe(false);
    expect(RegisterRequest.safeParse({ ...valid, hormonalStage: null }).success).toBe(false);
  });

  it('takes names in any script, joiners included', () => {
    // ZWNJ in a Persian name, an apostrophe, a hyphen, accents; names near the study's own
    for (const lastName of [
      '\u0645\u06CC\u200C\u0631\u06CC',
      "O'Connor-Lindqvist",
      'Ñúñez Ørsted',
      'Weaver',
      'Sleepy Weaver-Lee',
      'Isle Peweave',
    ]) {
      expect(RegisterRequest.safeParse({ ...valid, lastName }).success, lastName).toBe(true);
    }
  });

  // nor a name that reads as it to the eye: nothing-to-see characters in it, full width, lookalike letters
  it.each([
    'Sleep\u200Bweave study team',
    'Sleep\u200Dweave',
    'Sleep\u00ADweave',
    '\u0405leepweave',
    '\uFF33\uFF4C\uFF45\uFF45\uFF50\uFF57\uFF45\uFF41\uFF56\uFF45',
    'SIeepweave',
    'Sl\u0435\u0435pw\u0435\u0430ve',
    'S.l.e.e.p-w.e.a.v.e',
    'Sle\u0301epweave',
    '\u13DAleepweave',
    '\uA731leepweave',
    'S\u029Feepweave',
    'Sleepwe\u0251ve',
    'Slee\u00B7pweave',
    '\uD835\uDC12leepweave',
    // one letter away, as an outside tester signed
    'Sleepvveave study team',
    'SIeepvveave',
    'Sleeqweave',
    'Sleepwea\u028Cve',
    'Sleepweaver',
    'Sleepweaue',
    // a letter left out, as the last outside tester signed
    'Sleepwave',
    'Sleepweve team',
    'The Sleepweav',
  ])('refuses the name %j, which reads as Sleepweave', (firstName) => {
    const result = RegisterRequest.safeParse({ ...valid, firstName });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['First name must not contain "Sleepweave"']);
  });

  it('refuses a first and last name that read as Sleepweave together, at sign-up and in Settings', () => {
    const together = 'Your first and last name together must not read as "Sleepweave"';
    for (const [firstName, lastName] of [
      ['Sleep', 'Weave'],
      ['Slee', 'pweave'],
      ['SLEEP', 'weave team'],
    ] as const) {
      const registered = RegisterRequest.safeParse({ ...valid, firstName, lastName });
      expect(registered.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['lastName'], together]]);
      const profile = UpdateProfileRequest.safeParse({ firstName, lastName, timezone: 'Europe/London', hormonalStage: 'Menopause' });
      expect(profile.error?.issues.map((issue) => issue.message)).toEqual([together]);
    }
    expect(RegisterRequest.safeParse({ ...valid, firstName: 'Sleepy', lastName: 'Weaver' }).success).toBe(true);
  });

  it.each(['Sleepwear', 'Sleep Well', 'Weaver', 'Eve Sleep', 'Svetlana', 'Siew Wei', 'Pepe Weaver'])(
    'takes the name %j, which does not read as Sleepweave',
    (firstName) => {
      expect(RegisterRequest.safeParse({ ...valid, firstName }).success).toBe(true);
    },
  );

  it.each([
    [{ confirmPassword: 'different!' }, ['confirmPassword'], "Passwords don't match"],
    [{ password: 'seven77', confirmPassword: 'seven77' }, ['password'], 'Password must be at least 8 characters long'],
    [{ hormonalStage: 'Teen' }, ['hormonalStage'], undefined],
    [{ dateOfBirth: '2999-01-01' }, ['dateOfBirth'], 'Date of birth must be a past date'],
    [{ dateOfBirth: new Date().toISOString().slice(0, 10) }, ['dateOfBirth'], 'Date of birth must be a past date'],
    [{ dateOfBirth: '1890-01-01' }, ['dateOfBirth'], 'Date of birth must be in 1900 or later'],
    // words of hers in other people's screens, one line: no paragraph of her own, no reordering
    [{ firstName: 'Maya,\n\nYour account is locked' }, ['firstName'], 'First name must be one line of text, without control characters'],
    [{ lastName: 'evil\u202Egnp.exe' }, ['lastName'], 'Last name must be one line of text, without control characters'],
    [{ lastName: 'A\u2029B' }, ['lastName'], 'Last name must be one line of text, without control characters'],
    [{ firstName: 'Sleepweave study team' }, ['firstName'], 'First name must not contain "Sleepweave"'],
    [{ lastName: 'the SLEEP WEAVE team' }, ['lastName'], 'Last name must not contain "Sleepweave"'],
    [{ lastName: `Zal${'\u0301'.repeat(40)}go` }, ['lastName'], 'Last name has a character with more than 8 accents or marks on it'],
    // a name with nothing to see shows as nothing to the others
    [{ firstName: '\u200b' }, ['firstName'], 'First name is required'],
    [{ lastName: ' \u0301 ' }, ['lastName'], 'Last name is required'],
    // what was not sent at all, in the same words as what was sent empty
    [{ firstName: undefined }, ['firstName'], 'First name is required'],
    [{ dateOfBirth: undefined }, ['dateOfBirth'], 'Date of birth is required'],
    [{ email: undefined }, ['email'], 'Please enter a valid email address'],
    [{ password: undefined }, ['password'], 'Password is required'],
    [{ confirmPassword: undefined }, ['confirmPassword'], 'Please confirm your password'],
  ])('refuses %j', (overrides, path, message) => {
    const result = RegisterRequest.safeParse({ ...valid, ...overrides });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path).toEqual(path);
    if (message) expect(issue.message).toBe(message);
  });
});

describe('LoginRequest', () => {
  it('uses the spec wording', () => {
    const result = LoginRequest.safeParse({ email: 'nope', password: '' });
    expect(result.error!.issues.map((i) => i.message)).toEqual(['Please enter a valid email address', 'Password is required']);
    // and when neither was sent
    expect(LoginRequest.safeParse({}).error!.issues.map((i) => i.message)).toEqual([
      'Please enter a valid email address',
      'Password is required',
    ]);
    expect(LoginRequest.safeParse({ email: 'a@b.co', password: 'x'.repeat(257) }).error!.issues[0]!.message).toBe(
      'Password must be at most 256 characters long',
    );
  });
});

describe('CalendarDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
  ])('%s valid: %s', (value, ok) => {
    expect(CalendarDate.safeParse(value).success).toBe(ok);
  });
});

describe('parseEnvelope', () => {
  const envelope = {
    id: randomUUID(),
    type: 'identity.user.role_granted',
    version: 1,
    source: 'identity',
    subject: 'user:1',
    time: new Date().toISOString(),
    correlationId: null,
    causationId: null,
    data: { userId: randomUUID(), role: 'admin', grantedAt: new Date().toISOString() },
  };

  it('accepts a known event with valid data', () => {
    expect(parseEnvelope(envelope).type).toBe('identity.user.role_granted');
  });

  it('refuses a known event whose data does not match its schema', () => {
    expect(() => parseEnvelope({ ...envelope, data: { userId: 'x', role: 'queen' } })).toThrow();
  });
});

describe('a text field sent as something else', () => {
  const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

  it('is told it must be text; left out, that it is required', () => {
    expect(firstMessage(SleepLogDate.safeParse(20261208))).toBe('Date must be text');
    expect(firstMessage(SleepLogDate.safeParse(undefined))).toBe('Date is required');
    expect(firstMessage(RegisterRequest.safeParse({ ...valid, firstName: 123 }))).toBe('First name must be text');
    expect(firstMessage(RegisterRequest.safeParse({ ...valid, firstName: undefined }))).toBe('First name is required');
    expect(firstMessage(ResetPasswordRequest.safeParse({ token: 123, password: 'long enough' }))).toBe('Reset token must be text');
    expect(firstMessage(ResetPasswordRequest.safeParse({ token: ['a', 'b'], password: 'long enough' }))).toBe(
      'Reset token must be one value, not a list',
    );
    expect(
      firstMessage(SleepExportQuery.safeParse({ startDate: ['2026-11-01', '2026-11-01'], endDate: '2026-11-02', format: 'pdf' })),
    ).toBe('Start Date must be one value, not a list.');
    expect(firstMessage(SleepExportQuery.safeParse({ endDate: '2026-11-02', format: 'pdf' }))).toBe('Start Date is required.');
  });

  it("is told so in plain words where its schema says nothing of its own (not zod's 'Invalid input: expected string, received number')", () => {
    const Body = z.object({ currentPassword: z.string(), count: z.number(), flag: z.boolean(), search: z.string() });
    const messages = Body.safeParse({ currentPassword: 123, count: '3', flag: 'yes', search: ['a', 'b'] }).error?.issues.map((issue) => [
      issue.path.join('.'),
      issue.message,
    ]);
    expect(messages).toEqual([
      ['currentPassword', 'Must be text'],
      ['count', 'Must be a number'],
      ['flag', 'Must be true or false'],
      ['search', 'Must be one value, not a list'],
    ]);
    expect(firstMessage(Body.safeParse({ count: 3, flag: true, search: 'a' }))).toBe('Required');
    expect(firstMessage(ResetPasswordRequest.safeParse({ password: 'long enough' }))).toBe('No reset token provided');
    expect(firstMessage(CreateMessageRequest.safeParse({ body: 'hi' }))).toBe('Thread is required');
    expect(firstMessage(CreateMessageRequest.safeParse({ threadId: 'x', body: 'hi' }))).toBe('Thread must be a thread id');
  });
});
