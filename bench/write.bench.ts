/**
 * npm run bench (write): POST /api/journal/entry (one entry: its event, its projection row,
 * read back) made directly to the journal service, compiled and in production mode as
 * `npm start` runs it, beside its floor: the service's own SQL for one such write replayed by
 * pgbench on the same database (goal: the service ≥ 0.5× pgbench), alternating, medians.
 *
 * The SQL is the service's own: the bench runs the journal's command once through a
 * postgres.js connection that records every statement with its parameters, and writes them
 * as a pgbench script, each new id (the entry's, the event's, and the stream's lock key)
 * made fresh per transaction from a random number. pgbench runs it in a copy of the
 * journal's database (pg_dump), where no relay reads what it writes: in the journal's own,
 * the service's relay woke at each of its NOTIFYs and published its events (taking CPU from
 * the floor and, behind, from the next round of the service), and its made-up ids are not
 * the UUIDs the event's contract requires, so the relay stopped at the first.
 *
 * A write is done when its event is on the bus: a service round ends when the relay has
 * published every event of the round, and the writes are divided by that time (the catch-up
 * is printed). Its own databases and bus prefix, removed afterwards. Needs pgbench and
 * pg_dump (Debian's postgresql-client).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { relayBacklogMs } from '@sleepweave/event-store';
import { createLogger, dropDatabase } from '@sleepweave/service-kit';
import { freePort } from '@sleepweave/test-servers';
import postgres from 'postgres';
import { readJournalConfig } from '../services/journal/src/config.ts';
import { createJournalContext } from '../services/journal/src/context.ts';
import { writeJournalEntry } from '../services/journal/src/entries/commands.ts';
import { findEntry } from '../services/journal/src/entries/queries.ts';
import {
  benchApps,
  buildApps,
  commandSeconds,
  cpuSeconds,
  median,
  postgresSeconds,
  signUp,
  sleep,
  throughput,
  waitFor,
} from './support.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 16;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const reflections = { affirmation: 'I rest well', gratitude: 'A cool night', forgiveness: 'My restless self' };

/** A string literal; a colon is spliced in, as pgbench reads `:name` as a variable even inside quotes. */
const quote = (text: string) => `'${text.replaceAll("'", "''").replaceAll(':', "' || ':' || '")}'`;

/**
 * One write of the journal as pgbench replays it: each statement on one line, its
 * parameters as literals cast to their types, every id but hers (the user's) replaced by
 * one made from the transaction's random :r, and each stream lock taken on :r.
 */
function pgbenchScript(
  statements: { query: string; params: unknown[]; types: number[] }[],
  userId: string,
  typeNames: Map<number, string>,
): string {
  const ids = new Map<string, string>();
  const fresh = (id: string) => {
    if (!ids.has(id)) ids.set(id, `md5(:r::text || '${ids.size}')::uuid::text`);
    return ids.get(id)!;
  };
  const literal = (value: unknown, type: number): string => {
    if (value === null || value === undefined) return type ? `null::${typeNames.get(type)}` : 'null';
    const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
    let expression = quote(text);
    for (const id of new Set(text.match(UUID) ?? [])) {
      if (id.toLowerCase() !== userId.toLowerCase()) expression = `replace(${expression}, ${quote(id)}, ${fresh(id)})`;
    }
    return type ? `(${expression})::${typeNames.get(type)}` : expression;
  };
  const lines = ['\\set r random(1, 1000000000000)'];
  for (const { query, params, types } of statements) {
    let line = query.replace(/\s+/g, ' ').trim();
    if (/pg_advisory_xact_lock/.test(line)) {
      // the stream's lock key: a hash of its (fresh) id
      lines.push(`select pg_advisory_xact_lock(${Number(params[0])}, (:r::bigint % 2147483647)::int4);`);
      continue;
    }
    for (let i = params.length; i >= 1; i--) line = line.replaceAll(`$${i}`, literal(params[i - 1], types[i - 1] ?? 0));
    lines.push(`${line};`);
  }
  return `${lines.join('\n')}\n`;
}

// The apps as npm start runs them: compiled, each in a process of its own.
buildApps();
const [identityPort, journalPort] = [await freePort(), await freePort()];
const identityUrl = `http://127.0.0.1:${identityPort}`;
const journalUrl = `http://127.0.0.1:${journalPort}`;
const apps = benchApps('write', { IDENTITY_URL: identityUrl, JOURNAL_URL: journalUrl });
const journalDb = apps.database('journal');
const floorDb = `${journalDb}_pgbench`;
const scratch = mkdtempSync(join(tmpdir(), 'sw-bench-write-'));

try {
  apps.start('services/identity/dist/server.js', { PORT: String(identityPort) });
  // one user writes as fast as she can: her hourly limit (60) would stop the bench at once
  const journal = apps.start('services/journal/dist/server.js', { PORT: String(journalPort), JOURNAL_ENTRY_LIMIT_PER_HOUR: '100000000' });
  await waitFor(`${identityUrl}/health`);
  await waitFor(`${journalUrl}/health`);

  const { userId, accessToken } = await signUp(identityUrl);
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  // The journal learns of her registration from the bus: write once it has.
  for (let tries = 0; ; tries++) {
    const first = await fetch(`${journalUrl}/api/journal/entry`, { method: 'POST', headers, body: JSON.stringify(reflections) });
    if (first.status === 201) break;
    if (tries > 100) throw new Error(`first entry: ${first.status} ${await first.text()}`);
    await sleep(100);
  }

  // The service's SQL for one write, recorded as it runs.
  const statements: { query: string; params: unknown[]; types: number[] }[] = [];
  let recording = false;
  const recorder = postgres(`${DATABASE_URL}/${journalDb}`, {
    max: 1,
    transform: { undefined: null },
    debug: (_connection, query, params, types) => {
      if (recording) statements.push({ query, params: [...params], types: [...(types as number[])] });
    },
  });
  const typeNames = new Map(
    (await recorder<{ oid: number; typname: string }[]>`select oid::int, typname from pg_type`).map((t) => [t.oid, t.typname]),
  );
  const ctx = createJournalContext({
    config: readJournalConfig(apps.env),
    sql: recorder as never,
    logger: createLogger('bench', 'silent'),
  });
  const entryId = randomUUID();
  recording = true;
  await writeJournalEntry(ctx, { entryId, userId, reflections, now: new Date() }, { correlationId: randomUUID() });
  if (!(await findEntry(recorder as never, userId, entryId))) throw new Error('the recorded write is not there');
  recording = false;
  // The parameters' types as the server reads them (postgres.js records only those it was given).
  for (const statement of statements) {
    if (statement.params.length > 0) statement.types = [...(await recorder.unsafe(statement.query).describe()).types];
  }
  await recorder.end();
  const script = join(scratch, 'journal-write.sql');
  writeFileSync(script, pgbenchScript(statements, userId, typeNames));
  if (process.env.BENCH_SHOW_SCRIPT) console.log(pgbenchScript(statements, userId, typeNames));

  // The floor's database: a copy of the journal's (her directory row, the schema, the
  // events so far), where no relay listens.
  const url = new URL(DATABASE_URL);
  const connection = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres'];
  execFileSync('psql', [...connection, '-q', '-d', 'postgres', '-c', `create database "${floorDb}"`], { stdio: 'pipe' });
  const dump = execFileSync('pg_dump', [...connection, '--no-owner', journalDb], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('psql', [...connection, '-q', '-v', 'ON_ERROR_STOP=1', '-d', floorDb], { input: dump, stdio: ['pipe', 'ignore', 'pipe'] });

  /** PostgreSQL's CPU per write (µs) in each round of pgbench and of the service, and the load's (pgbench's own, this process's). */
  const cpu = {
    floor: { postgres: [] as number[], load: [] as number[] },
    service: { postgres: [] as number[], load: [] as number[], nats: [] as number[] },
  };
  const pgbench = (): number => {
    const postgresBefore = postgresSeconds();
    const children = () => (cpuSeconds(process.pid, { reapedChildren: true }) ?? Number.NaN) - (cpuSeconds(process.pid) ?? Number.NaN);
    const loadBefore = children();
    const output = execFileSync(
      'pgbench',
      ['-n', '-M', 'prepared', '-c', String(CONCURRENCY), '-j', '2', '-T', String(SECONDS), '-f', script, ...connection, floorDb],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
    const done = /number of transactions actually processed: (\d+)/.exec(output);
    if (!tps || !done) throw new Error(`pgbench said: ${output}`);
    // pgbench is this process's child: its time is counted here once it has ended
    const loadAfter = children();
    cpu.floor.postgres.push(((postgresSeconds() - postgresBefore) * 1e6) / Number(done[1]));
    if (Number.isFinite(loadAfter - loadBefore)) cpu.floor.load.push(((loadAfter - loadBefore) * 1e6) / Number(done[1]));
    return Number(tps[1]);
  };

  // A round of the service: its writes over the time until the relay has published the last
  // one's event (the catch-up, kept to print).
  const backlog = postgres(`${DATABASE_URL}/${journalDb}`, { max: 1 });
  const catchUps: number[] = [];
  /** The journal process's CPU (user + system) per write, µs, relay included. */
  const cpuPerWrite: number[] = [];
  const write = { method: 'POST' as const, path: '/api/journal/entry', headers, body: JSON.stringify(reflections) };
  const load = { seconds: SECONDS, concurrency: CONCURRENCY, status: 201 };
  const serviceRound = async (): Promise<number> => {
    const started = performance.now();
    const cpuBefore = cpuSeconds(journal.pid);
    const postgresBefore = postgresSeconds();
    const natsBefore = commandSeconds('nats-server');
    const loadBefore = process.cpuUsage();
    const writes = (await throughput(journalUrl, write, load)) * SECONDS;
    const loadEnded = performance.now();
    const loadUsed = process.cpuUsage(loadBefore);
    cpu.service.load.push((loadUsed.user + loadUsed.system) / writes);
    while ((await relayBacklogMs(backlog as never)) !== null) await sleep(2);
    const ended = performance.now();
    catchUps.push(ended - loadEnded);
    const cpuAfter = cpuSeconds(journal.pid);
    if (cpuBefore !== null && cpuAfter !== null) cpuPerWrite.push(((cpuAfter - cpuBefore) / writes) * 1e6);
    cpu.service.postgres.push(((postgresSeconds() - postgresBefore) * 1e6) / writes);
    cpu.service.nats.push(((commandSeconds('nats-server') - natsBefore) * 1e6) / writes);
    return writes / ((ended - started) / 1000);
  };

  pgbench(); // warm-up, and the script runs
  await serviceRound();
  catchUps.length = 0;
  cpuPerWrite.length = 0;
  for (const values of [cpu.floor.postgres, cpu.floor.load, cpu.service.postgres, cpu.service.load, cpu.service.nats]) values.length = 0;
  const service: number[] = [];
  const floor: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    service.push(await serviceRound());
    floor.push(pgbench());
  }
  await backlog.end();
  console.log(
    `write: POST /api/journal/entry on the journal service, ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds of ${SECONDS} s`,
  );
  console.log(
    `  its own SQL (${statements.length} statements) replayed by pgbench (floor): ${median(floor).toFixed(0)} writes/s; the journal service: ${median(service).toFixed(0)} writes/s, its events on the bus (the relay caught up ${median(catchUps).toFixed(0)} ms after the load's end)`,
  );
  if (cpuPerWrite.length > 0) console.log(`  the journal's CPU per write (relay included): ${median(cpuPerWrite).toFixed(0)} µs`);
  const µs = (values: number[]) => (values.length > 0 ? `${median(values).toFixed(0)} µs` : 'not measured');
  console.log(
    `  CPU per write elsewhere (medians): PostgreSQL ${µs(cpu.service.postgres)} for the service's writes (its relay's reads included), ${µs(cpu.floor.postgres)} for pgbench's; the load ${µs(cpu.service.load)} (this process), pgbench ${µs(cpu.floor.load)}; the NATS server ${µs(cpu.service.nats)} (storing and acknowledging the service's events: pgbench publishes none)`,
  );
  // Both sides share the machine's two cores with everything they need, so the ratio follows
  // the CPU a write costs each side in all its processes (docs/performance.md).
  const totals = cpuPerWrite.map((journalCpu, i) => ({
    service: journalCpu + cpu.service.postgres[i]! + cpu.service.load[i]! + cpu.service.nats[i]!,
    floor: cpu.floor.postgres[i]! + cpu.floor.load[i]!,
  }));
  const summed = totals.filter(({ service: s, floor: f }) => Number.isFinite(s) && Number.isFinite(f));
  if (summed.length > 0) {
    const [serviceTotal, floorTotal] = [median(summed.map((t) => t.service)), median(summed.map((t) => t.floor))];
    console.log(
      `  CPU per write, all its processes (medians): the service ${serviceTotal.toFixed(0)} µs (journal, PostgreSQL, load, NATS), pgbench ${floorTotal.toFixed(0)} µs (PostgreSQL, pgbench): their quotient ${(floorTotal / serviceTotal).toFixed(2)}, what the ratio comes to where both are bound by the CPU`,
    );
  }
  const ratios = service.map((s, i) => s / floor[i]!);
  console.log(
    `  ratio service / pgbench: ${median(ratios).toFixed(2)}× (goal ≥ 0.5×); by round: ${ratios.map((r, i) => `${r.toFixed(2)} (${service[i]!.toFixed(0)} / ${floor[i]!.toFixed(0)})`).join(', ')}`,
  );
} finally {
  await apps.stop(['identity', 'journal']);
  await dropDatabase(DATABASE_URL, floorDb).catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}
