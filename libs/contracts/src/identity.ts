import { z } from 'zod';
import { CalendarDate, hasSomethingToSee, hasStackedMarks, Role, stackedMarksMessage, textError, Uuid } from './common.ts';
import { DEFAULT_HORMONAL_STAGE, DEFAULT_TIMEZONE, HormonalStage, Timezone } from './profile.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const Email = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'E-mail address is too long')
  .pipe(z.email('Please enter a valid email address'));

/**
 * What a name may not hold: line breaks and other control characters, and the bidi
 * overrides and isolates that reorder the text around them. A name is shown to other
 * members and to admins, one line of text as she typed it.
 */
export const NOT_IN_A_NAME = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/**
 * Letters of other scripts that look like those of "sleepweave" in the app's fonts, folded
 * to them: Unicode's confusables (TR39) for these seven letters, from Cyrillic, Greek,
 * Cherokee, the small capitals and IPA, a capital I, a 1 or a | for an l, a q for a p and a u for a v. Each string
 * lists the lookalikes of its letter.
 */
const LOOKALIKES_OF: Record<string, string> = {
  s: '\u0455\u0405\u01BD\u13DA\uA731\u1D74\u0282$5',
  l: '\u04CF\u0406\u0456\u0399\u03B9\u0269\u029F\u13DE\u01C0\u2C92\u217Cil1|',
  e: '\u0435\u0415\u0395\u03B5\u0454\u0404\u13AC\u1D07\u2C88\u212E3',
  p: '\u0440\u0420\u03C1\u03A1\u13E2\u1D18\u2C8E\u01BFq',
  w: '\u051D\u051C\u0461\u0460\u03C9\u13B3\u1D21\u026F\u0175',
  a: '\u0430\u0410\u0391\u03B1\u0251\u13AA\u1D00\u2C80\u0250@4',
  v: '\u0475\u0474\u03BD\u13D9\u1D20\u2228\u028Bu',
  // and of the welcome thread's ("Welcome to the Sleepweave Community")
  o: '\u043E\u041E\u03BF\u039F0',
  c: '\u0441\u0421\u03F2',
  m: '\u043C\u041C\u039C',
};
const LOOKALIKES = new Map(Object.entries(LOOKALIKES_OF).flatMap(([letter, others]) => Array.from(others, (other) => [other, letter])));

/**
 * A text as the eye reads it, to compare with a name: compatibility forms folded (full
 * width, mathematical letters), accents and the characters that show nothing (zero width,
 * soft hyphen, joiners) taken out, lookalike letters folded, case ignored, and what is not a
 * letter or digit (spaces, dots, a middle dot) passed over.
 */
export function asTheEyeReadsIt(text: string): string {
  const fold = (part: string) => Array.from(part, (char) => LOOKALIKES.get(char) ?? char).join('');
  // folded before and after lower case: some lookalikes' lower case is no longer one (Cherokee)
  const plain = text.normalize('NFKD').replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, '');
  return fold(fold(plain).toLowerCase()).replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * "Sleepweave" as {@link asTheEyeReadsIt} gives it: a letter repeated or not, "vv" for its w,
 * and one of the letters after the w left out ("Sleepwave", "Sleepweve", "Sleepweav": the eye
 * reads the name it knows).
 */
export const SLEEPWEAVE_LETTERS = 'sl+e+p+(?:w|vv)+e*a*v+e?';
const SLEEPWEAVE = new RegExp(SLEEPWEAVE_LETTERS);

/** Whether `pattern` matches the letters of `text` as the eye reads them, also with those outside plain Latin passed over. */
export function readsAs(text: string, pattern: RegExp): boolean {
  const letters = asTheEyeReadsIt(text);
  return pattern.test(letters) || pattern.test(letters.replace(/[^a-z0-9]/g, ''));
}

/**
 * Whether a name reads as "Sleepweave" to the eye ({@link asTheEyeReadsIt}), also with a
 * letter from outside plain Latin slipped in: "Sleep\u200Bweave", "Ｓｌｅｅｐｗｅａｖｅ",
 * "\u0405leepweave" (a Cyrillic S), "Slee·pweave", "Sleepvveave", "Sleeqweave" and
 * "Sleepwea\u028Cve" all read as the study team's name.
 */
export function readsAsSleepweave(name: string): boolean {
  return readsAs(name, SLEEPWEAVE);
}

/** Her first and last name together must not read as "Sleepweave" either ("Sleep" "Weave"). */
const NAME_TOGETHER = {
  message: 'Your first and last name together must not read as "Sleepweave"',
  path: ['lastName'],
};
/** (A name that reads as Sleepweave alone is refused on its own field, not twice.) */
const notSleepweaveTogether = (v: { firstName: unknown; lastName: unknown }) =>
  typeof v.firstName !== 'string' ||
  typeof v.lastName !== 'string' ||
  readsAsSleepweave(v.firstName) ||
  readsAsSleepweave(v.lastName) ||
  !readsAsSleepweave(`${v.firstName}${v.lastName}`);

const Name = (label: string) =>
  z
    .string({ error: textError(`${label} is required`, label) })
    .trim()
    // something to see: a name of only invisible characters (U+200B, a lone accent) shows as nothing
    .refine(hasSomethingToSee, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`)
    .refine((name) => !NOT_IN_A_NAME.test(name), `${label} must be one line of text, without control characters`)
    .refine((name) => !hasStackedMarks(name), stackedMarksMessage(label))
    // the study team's messages carry its name: no member may sign as Sleepweave
    .refine((name) => !readsAsSleepweave(name), `${label} must not contain "Sleepweave"`);

export const Password = z
  .string({ error: textError('Password is required', 'Password') })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`);

/** The date it is now where the day began last (UTC−12): a date before it is past everywhere. */
const earliestToday = () => new Date(Date.now() - 12 * 3_600_000).toISOString().slice(0, 10);
/** The last date of birth `DateOfBirth` takes (the day before `earliestToday`): the form's date input goes no later. */
export const latestDateOfBirth = () => new Date(Date.now() - 36 * 3_600_000).toISOString().slice(0, 10);

/** A date of birth: a real date, in the past wherever she is (not today), not before 1900. */
export const DateOfBirth = z
  .string({ error: textError('Date of birth is required', 'Date of birth') })
  .pipe(CalendarDate)
  .refine((value) => value >= '1900-01-01', 'Date of birth must be in 1900 or later')
  .refine((value) => value < earliestToday(), 'Date of birth must be a past date');

/** POST /api/register. The message for mismatched passwords is the schema wording of docs/product.md §5. */
export const RegisterRequest = z
  .object({
    email: Email,
    password: Password,
    confirmPassword: z
      .string({ error: textError('Please confirm your password', 'Password confirmation') })
      .min(1, 'Please confirm your password'),
    firstName: Name('First name'),
    lastName: Name('Last name'),
    dateOfBirth: DateOfBirth,
    // the spec's defaults (§9), for a client that leaves them out (the app's form starts at them)
    timezone: Timezone.default(DEFAULT_TIMEZONE),
    hormonalStage: HormonalStage.default(DEFAULT_HORMONAL_STAGE),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })
  .refine(notSleepweaveTogether, NAME_TOGETHER);
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** POST /api/login */
export const LoginRequest = z.object({
  email: Email,
  password: z
    .string({ error: textError('Password is required', 'Password') })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /api/forgot-password: answered the same whether the e-mail is registered or not. */
export const ForgotPasswordRequest = z.object({ email: Email });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** A password-reset token as it arrives from the link (opaque, base64url). */
export const ResetToken = z
  .string({ error: textError('No reset token provided', 'Reset token') })
  .trim()
  .min(1, 'No reset token provided')
  .max(200, 'Invalid or expired reset token');

/** GET /api/validate-reset-token?token= */
export const ValidateResetTokenQuery = z.object({ token: ResetToken });
export const ValidateResetTokenResponse = z.object({ valid: z.literal(true), message: z.string() });
export type ValidateResetTokenResponse = z.infer<typeof ValidateResetTokenResponse>;

/** POST /api/reset-password (the confirmation field is checked in the browser only). */
export const ResetPasswordRequest = z.object({ token: ResetToken, password: Password });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/** The error word and message of a used, expired or unknown reset token (docs/product.md §8). */
export const INVALID_RESET_TOKEN = 'Invalid or expired reset token';

/** PUT /api/profile: what she can change in her settings (the e-mail is not among them). */
export const UpdateProfileRequest = z
  .object({
    firstName: Name('First name'),
    lastName: Name('Last name'),
    timezone: Timezone,
    hormonalStage: HormonalStage,
    /**
     * The profile as her form was filled from it (the app always sends it): a field she left as
     * it was keeps what another tab or device saved meanwhile, and one both changed is a 409
     * `changed_meanwhile`. Without it, every field is replaced, as before. Compared, never stored.
     */
    expected: z
      .object({ firstName: z.string(), lastName: z.string(), timezone: z.string(), hormonalStage: z.string().nullable() })
      .optional(),
  })
  .refine(notSleepweaveTogether, NAME_TOGETHER);
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

/** POST /api/account/password: her other sessions end, this one stays. */
export const ChangePasswordRequest = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
    newPassword: Password,
    confirmPassword: z
      .string({ error: textError('Please confirm your new password', 'Password confirmation') })
      .min(1, 'Please confirm your new password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    message: 'Your new password must be different from your current password',
    path: ['newPassword'],
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** DELETE /api/account: deleting her account needs her password. */
export const DeleteAccountRequest = z.object({
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
});
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequest>;

/** GET /api/user: the signed-in user, never with a password hash. */
export const User = z.object({
  id: Uuid,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  timezone: Timezone,
  hormonalStage: HormonalStage.nullable(),
  role: Role,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

/** GET /api/auth/user: the user plus the study start date (null until consent). */
export const AuthUser = User.extend({ studyStartDate: CalendarDate.nullable() });
export type AuthUser = z.infer<typeof AuthUser>;

/** Answers to register / login / logout. */
export const AuthResponse = z.object({ message: z.string(), user: User });
export type AuthResponse = z.infer<typeof AuthResponse>;
export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** The claims of the access token identity signs (verified by the gateway and every service). */
export const AccessTokenClaims = z.object({
  sub: Uuid,
  sid: Uuid,
  role: Role,
});
export type AccessTokenClaims = z.infer<typeof AccessTokenClaims>;
export const ACCESS_TOKEN_AUDIENCE = 'sleepweave';
export const ACCESS_TOKEN_ISSUER = 'sleepweave-identity';
export const ACCESS_COOKIE = 'sw_access';
export const REFRESH_COOKIE = 'sw_session';

/**
 * The session cookies' names for an app served at `appUrl`. Over https they carry the
 * `__Host-` prefix: a browser then keeps them only as set by this very host (Secure, Path=/,
 * no Domain), so a page of a sibling subdomain cannot plant one that her browser would send
 * ahead of hers (cookie tossing: she was signed out for good, or into the planter's account).
 * Plain http (a machine of one's own, the tests) cannot have the prefix.
 */
export function sessionCookieNames(appUrl: string): { access: string; refresh: string } {
  const prefix = new URL(appUrl).protocol === 'https:' ? '__Host-' : '';
  return { access: `${prefix}${ACCESS_COOKIE}`, refresh: `${prefix}${REFRESH_COOKIE}` };
}
