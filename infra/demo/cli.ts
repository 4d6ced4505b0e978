/**
 * npm run demo -- [--participants N] [--seed S] [--reset]
 *
 * Adds a demo cohort to the running system (docs/demo.md): a demo admin and N participants
 * spread over the 42-day study, written through the services' own commands with the clock
 * set to the past. `--reset` removes every demo account through identity's account
 * deletion. Same settings as `npm start` (DATABASE_URL, DB_PREFIX, NATS_URL, BUS_PREFIX,
 * SERVICE_PORT_BASE or the <SERVICE>_URL variables, INTERNAL_TOKEN); the system must be running.
 */
import { DEMO_EMAIL_DOMAIN } from '@sleepweave/contracts';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD, generateCohort, SHOWCASE, type DemoCohort } from './cohort.ts';
import { parseDemoArgs, type DemoArgs } from './args.ts';
import { addDemoCohort, DemoCohortExists, removeDemoCohort } from './seed.ts';
import { checkRunning, checkSameVersion, connectDemoSystem, serviceUrls, SystemNotReady } from './system.ts';

/** Commands in flight at once: enough to keep PostgreSQL busy on a small machine. */
const CONCURRENCY = 8;

function accountsTable(cohort: DemoCohort): string[] {
  const lines = [`  ${DEMO_ADMIN_EMAIL.padEnd(40)} admin: /admin/research (Run now), the cohort's research runs`];
  for (const showcase of SHOWCASE) {
    const participant = cohort.participants.find((p) => p.showcase === showcase.local);
    if (participant) {
      lines.push(`  ${participant.email.padEnd(40)} ${showcase.description} (${participant.nights.length} nights logged)`);
    }
  }
  const others = cohort.participants.length - SHOWCASE.length;
  if (others > 0) {
    const last = cohort.participants[cohort.participants.length - 1]!.email;
    lines.push(`  participant-0006 ... ${last.split('@')[0]}@${DEMO_EMAIL_DOMAIN}: ${others} more, at every stage of the study`);
  }
  return lines;
}

async function main(): Promise<number> {
  let args: DemoArgs;
  try {
    args = parseDemoArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const env = process.env;
  const urls = serviceUrls(env);
  await checkRunning(urls);
  const system = await connectDemoSystem(env, CONCURRENCY + 2).catch((err: unknown) => {
    throw new SystemNotReady(
      `Cannot reach the services' databases (${(err as Error).message}). Same DATABASE_URL and DB_PREFIX as npm start?`,
    );
  });
  const log = (line: string) => console.log(line);
  const started = performance.now();
  try {
    await checkSameVersion(system);
    if (args.reset) {
      console.log(`Removing the demo accounts (@${DEMO_EMAIL_DOMAIN}) through account deletion ...`);
      const { removed, keptAdmin } = await removeDemoCohort(system, { concurrency: CONCURRENCY, log });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        removed === 0
          ? 'No demo account was removed.'
          : `Removed ${removed} demo accounts and everything of theirs in every service in ${seconds} s.`,
      );
      if (keptAdmin) {
        console.log(
          `${keptAdmin} stays: she is the only admin, and an account is never deleted while it is the last admin's. ` +
            'Name another admin (npm run admin:grant -- <e-mail>) and reset again to remove her too; npm run demo uses her again meanwhile.',
        );
      }
      return 0;
    }
    const cohort = generateCohort({ participants: args.participants, seed: args.seed, now: new Date() });
    console.log(
      `Adding a demo cohort of ${args.participants} participants (seed "${args.seed}") to ${env.DB_PREFIX ?? 'sleepweave_'}* ...`,
    );
    try {
      await addDemoCohort(system, cohort, { concurrency: CONCURRENCY, log });
    } catch (err) {
      if (!(err instanceof DemoCohortExists)) throw err;
      console.error(err.message);
      return 1;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`Done in ${seconds.toFixed(1)} s (${args.participants} participants).`);
    console.log('');
    console.log(`Demo accounts (password for all: ${DEMO_PASSWORD}):`);
    for (const line of accountsTable(cohort)) console.log(line);
    console.log('');
    console.log(`Sign in at ${env.APP_URL ?? `http://localhost:${env.PORT ?? 3000}`}/auth. Remove them all: npm run demo -- --reset`);
    return 0;
  } finally {
    await system.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`Demo stopped: ${(err as Error).message}`);
    if (!(err instanceof SystemNotReady)) {
      console.error(`Whatever was written is under @${DEMO_EMAIL_DOMAIN}: npm run demo -- --reset removes it.`);
    }
    process.exitCode = 1;
  },
);
