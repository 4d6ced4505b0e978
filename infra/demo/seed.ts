import { randomUUID } from 'node:crypto';
import {
  CreateMessageRequest,
  CreateThreadRequest,
  CURRENT_PROTOCOL,
  DEMO_EMAIL_DOMAIN,
  JournalEntryRequest,
  SleepLogFields,
  toSleepLogValues,
  type SleepLogValues,
} from '@sleepweave/contracts';
import type { EventMetadata } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';
import { postMessage } from '../../services/community/src/memberships/commands.ts';
import { createPublicThread, WELCOME_THREAD_ID } from '../../services/community/src/threads/commands.ts';
import { deleteUser } from '../../services/identity/src/account-deletion/commands.ts';
import { registerUser, setRole } from '../../services/identity/src/users/commands.ts';
import { hashPassword } from '../../services/identity/src/users/passwords.ts';
import { listUsersOfEmailDomain } from '../../services/identity/src/users/queries.ts';
import { writeJournalEntry } from '../../services/journal/src/entries/commands.ts';
import { giveConsent } from '../../services/study/src/consents/commands.ts';
import { recordSleepLog, reviseSleepLog } from '../../services/study/src/sleep-logs/commands.ts';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD, type DemoAccount, type DemoCohort, type DemoParticipant } from './cohort.ts';
import type { DemoSystem } from './system.ts';

/**
 * Writes a generated cohort into the running system through each service's own commands,
 * with the clock set to the past (`now` of each command is when it happened), and waits
 * until every consumer has followed; removes it again through identity's account deletion.
 * Nothing here writes a read model: the commands append events (their inline projections
 * update their own service's tables) and the relays publish them to every consumer.
 */

export type Log = (line: string) => void;

export interface SeedOptions {
  /** Commands in flight at once (participants written side by side). */
  concurrency: number;
  /** How long the other services may make no progress before the demo gives up. */
  followTimeoutMs?: number;
  log?: Log;
}

export interface SeedResult {
  /** Her e-mail -> her user id. */
  userIds: Map<string, string>;
  counts: {
    accounts: number;
    consents: number;
    nights: number;
    revisions: number;
    journalEntries: number;
    threads: number;
    messages: number;
  };
  /** Seconds per step. */
  timings: { step: string; seconds: number; detail: string }[];
}

/** Runs `work` over `items`, at most `concurrency` at a time; the first failure stops the rest. */
export async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const runner = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, runner));
}

/**
 * Polls `count` until it returns `expected`; throws naming `what` when it has not moved for
 * `stallMs`. Says how far it got every 10 s, so a long wait does not look like a hang.
 */
export async function waitForCount(
  count: () => Promise<number>,
  expected: number,
  what: string,
  stallMs: number,
  log: Log = () => {},
): Promise<void> {
  let moved = Date.now();
  let reported = Date.now();
  let seen = await count();
  while (seen !== expected) {
    if (Date.now() - moved > stallMs) {
      throw new Error(
        `${what}: ${seen} of ${expected}, unchanged for ${Math.round(stallMs / 1000)} s. Is every service running and healthy?`,
      );
    }
    if (Date.now() - reported >= 10_000) {
      reported = Date.now();
      log(`             ... ${what}: ${seen.toLocaleString('en-GB')} of ${expected.toLocaleString('en-GB')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await count();
    if (now !== seen) moved = Date.now();
    seen = now;
  }
}

const countIn = async (sql: Sql, query: (sql: Sql) => Promise<{ n: number }[]>) => (await query(sql))[0]!.n;

/** The night's fields as the route would accept them: the same schema, or it is not written. */
function checkedValues(values: SleepLogValues, what: string): SleepLogValues {
  const parsed = SleepLogFields.safeParse(values);
  if (!parsed.success) throw new Error(`${what}: the API would refuse it (${parsed.error.issues[0]?.message}); not written`);
  return toSleepLogValues(parsed.data);
}

function registration(account: DemoAccount, userId: string, passwordHash: string) {
  return {
    userId,
    email: account.email,
    passwordHash,
    firstName: account.firstName,
    lastName: account.lastName,
    dateOfBirth: account.dateOfBirth,
    timezone: account.timezone,
    hormonalStage: account.hormonalStage,
    now: account.registeredAt,
  };
}

/** The demo accounts that exist now (by their e-mail domain). */
export const listDemoAccounts = (system: DemoSystem) => listUsersOfEmailDomain(system.identity.sql, DEMO_EMAIL_DOMAIN);

/** There are demo accounts already: one cohort at a time. */
export class DemoCohortExists extends Error {
  override name = 'DemoCohortExists';
}

/** Adds the cohort to the running system; refuses (DemoCohortExists) while demo accounts exist. */
export async function addDemoCohort(system: DemoSystem, cohort: DemoCohort, options: SeedOptions): Promise<SeedResult> {
  const existing = await listDemoAccounts(system);
  // The demo admin may have stayed after a reset (the only admin is never deleted): used again.
  const keptAdmin = existing.find((a) => a.email === cohort.admin.email);
  const others = existing.filter((a) => a !== keptAdmin);
  if (others.length > 0) {
    throw new DemoCohortExists(
      `There is a demo cohort already (${others.length} accounts @${DEMO_EMAIL_DOMAIN}). Remove it first: npm run demo -- --reset`,
    );
  }
  const log = options.log ?? (() => {});
  const followTimeoutMs = options.followTimeoutMs ?? 120_000;
  const timings: SeedResult['timings'] = [];
  let started = performance.now();
  const step = (name: string, detail: string) => {
    const seconds = (performance.now() - started) / 1000;
    timings.push({ step: name, seconds, detail });
    log(`  ${name.padEnd(10)} ${detail.padEnd(58)} ${seconds.toFixed(1).padStart(6)} s`);
    started = performance.now();
  };
  const correlationId = randomUUID();
  const metadataOf = (userId: string): EventMetadata => ({ correlationId, userId });

  // 1. Accounts (identity): one argon2 hash of the shared password for all of them.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const userIds = new Map<string, string>();
  const accounts: DemoAccount[] = [cohort.admin, ...cohort.participants];
  for (const account of accounts) userIds.set(account.email, randomUUID());
  if (keptAdmin) userIds.set(keptAdmin.email, keptAdmin.id);
  const idOf = (account: { email: string }) => userIds.get(account.email)!;
  const toRegister = keptAdmin ? cohort.participants : accounts;
  await inPool(toRegister, options.concurrency, async (account) => {
    const userId = idOf(account);
    await registerUser(system.identity, registration(account, userId, passwordHash), metadataOf(userId));
  });
  // (unchanged when she is an admin already)
  await setRole(system.identity, idOf(cohort.admin), 'admin', metadataOf(idOf(cohort.admin)), cohort.admin.registeredAt);
  step(
    'accounts',
    `${toRegister.length} registered (${keptAdmin ? 'the demo admin kept from before' : '1 admin'}, ${cohort.participants.length} participants)`,
  );

  // 2. Their registrations reach the services that keep a user directory.
  const ids = [...userIds.values()];
  for (const name of ['study', 'journal', 'community', 'research-export'] as const) {
    await waitForCount(
      () => countIn(system.sql[name], (sql) => sql`select count(*)::int as n from user_directory where user_id = any(${ids}::uuid[])`),
      ids.length,
      `registrations known to ${name}`,
      followTimeoutMs,
      log,
    );
  }
  step('profiles', 'known to study, journal, community and research-export');

  // 3. Each participant's study and journal, in the order she lived them.
  const counts = { accounts: accounts.length, consents: 0, nights: 0, revisions: 0, journalEntries: 0, threads: 0, messages: 0 };
  await inPool(cohort.participants, options.concurrency, async (participant: DemoParticipant) => {
    const userId = idOf(participant);
    const metadata = metadataOf(userId);
    try {
      if (participant.consentAt) {
        await giveConsent(
          system.study,
          { userId, consentVersion: CURRENT_PROTOCOL.version, ipAddress: null, now: participant.consentAt },
          metadata,
        );
        counts.consents += 1;
      }
      for (const night of participant.nights) {
        const logId = randomUUID();
        const values = checkedValues(night.values, `night ${night.date}`);
        await recordSleepLog(system.study, { logId, userId, date: night.date, values, now: night.recordedAt }, metadata);
        counts.nights += 1;
        if (night.revision) {
          const revised = checkedValues(night.revision.values, `revision of night ${night.date}`);
          await reviseSleepLog(
            system.study,
            { logId, userId, loggedDate: night.date, date: night.date, values: revised, now: night.revision.at },
            metadata,
          );
          counts.revisions += 1;
        }
      }
      for (const entry of participant.journal) {
        const reflections = JournalEntryRequest.parse({
          affirmation: entry.affirmation,
          gratitude: entry.gratitude,
          forgiveness: entry.forgiveness,
        });
        await writeJournalEntry(system.journal, { entryId: randomUUID(), userId, reflections, now: entry.at }, metadata);
        counts.journalEntries += 1;
      }
    } catch (err) {
      throw new Error(`${participant.email}: ${(err as Error).message}`, { cause: err });
    }
  });
  step(
    'study',
    `${counts.consents} consents, ${counts.nights} nights (${counts.revisions} revised), ${counts.journalEntries} journal entries`,
  );

  // 4. Community: threads in the order they were started, each thread's messages in order.
  const byIndex = new Map(cohort.participants.map((p) => [p.index, p]));
  for (const thread of cohort.threads) {
    let threadId = WELCOME_THREAD_ID;
    if (thread.name !== null && thread.creator !== null && thread.createdAt !== null) {
      threadId = randomUUID();
      const creatorId = idOf(byIndex.get(thread.creator)!);
      const { name } = CreateThreadRequest.parse({ name: thread.name });
      await createPublicThread(system.community, { threadId, name, creatorId, now: thread.createdAt }, metadataOf(creatorId));
      counts.threads += 1;
    }
    for (const message of thread.messages) {
      const userId = idOf(byIndex.get(message.author)!);
      const { body } = CreateMessageRequest.parse({ threadId, body: message.body });
      await postMessage(system.community, { threadId, userId, messageId: randomUUID(), body, now: message.at }, metadataOf(userId));
      counts.messages += 1;
    }
  }
  step('community', `${counts.threads} threads, ${counts.messages} messages`);

  // 5. Every consumer has followed: identity and community know the study start dates,
  // research-export every enrolment, night, revision and journal day.
  const consented = cohort.participants.filter((p) => p.consentAt).map(idOf);
  const revisions = counts.revisions;
  await waitForCount(
    () =>
      countIn(
        system.sql.identity,
        (sql) => sql`select count(*)::int as n from users where id = any(${consented}::uuid[]) and study_start_date is not null`,
      ),
    consented.length,
    'study start dates known to identity',
    followTimeoutMs,
    log,
  );
  await waitForCount(
    () =>
      countIn(
        system.sql.community,
        (sql) => sql`select count(*)::int as n from study_participants where user_id = any(${consented}::uuid[])`,
      ),
    consented.length,
    'study participants known to community',
    followTimeoutMs,
    log,
  );
  const research = system.researchExport;
  await waitForCount(
    () => countIn(research, (sql) => sql`select count(*)::int as n from research_participants where user_id = any(${consented}::uuid[])`),
    consented.length,
    'participants enrolled by research-export',
    followTimeoutMs,
    log,
  );
  await waitForCount(
    () =>
      countIn(
        research,
        (sql) => sql`select (count(*) + coalesce(sum(revisions), 0))::int as n from research_nights where user_id = any(${ids}::uuid[])`,
      ),
    counts.nights + revisions,
    'nights and revisions known to research-export',
    followTimeoutMs,
    log,
  );
  await waitForCount(
    () => countIn(research, (sql) => sql`select count(*)::int as n from research_journal_entries where user_id = any(${ids}::uuid[])`),
    counts.journalEntries,
    'journal days known to research-export',
    followTimeoutMs,
    log,
  );
  step('following', 'identity, community and research-export have caught up');
  return { userIds, counts, timings };
}

export interface RemoveResult {
  /** Accounts deleted. */
  removed: number;
  /**
   * The demo admin's e-mail when her account stays: she is the only admin, and identity
   * never deletes the last admin (her account goes at the next reset after another admin
   * is named; `npm run demo` uses her again meanwhile).
   */
  keptAdmin: string | null;
}

/**
 * Removes every demo account (e-mail at the demo domain) through identity's account
 * deletion, as an admin's deletion would: the `identity.user.deleted` event makes every
 * service remove what it holds of her. Participants first, the demo admin last. Waits
 * until every service has followed.
 */
export async function removeDemoCohort(system: DemoSystem, options: SeedOptions): Promise<RemoveResult> {
  const accounts = await listDemoAccounts(system);
  const participants = accounts.filter((a) => a.email !== DEMO_ADMIN_EMAIL);
  const deleted: string[] = [];
  await inPool(participants, options.concurrency, async ({ id }) => {
    if ((await deleteUser(system.identity, id, 'admin', { correlationId: randomUUID() })) === 'deleted') deleted.push(id);
  });
  let keptAdmin: string | null = null;
  const admin = accounts.find((a) => a.email === DEMO_ADMIN_EMAIL);
  if (admin) {
    const result = await deleteUser(system.identity, admin.id, 'admin', { correlationId: randomUUID() });
    if (result === 'deleted') deleted.push(admin.id);
    if (result === 'last_admin') keptAdmin = admin.email;
  }
  for (const name of ['study', 'journal', 'community', 'research-export'] as const) {
    await waitForCount(
      () => countIn(system.sql[name], (sql) => sql`select count(*)::int as n from user_directory where user_id = any(${deleted}::uuid[])`),
      0,
      `deleted accounts still known to ${name}`,
      options.followTimeoutMs ?? 120_000,
      options.log,
    );
  }
  return { removed: deleted.length, keptAdmin };
}
