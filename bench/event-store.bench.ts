/**
 * npm run bench: figures for the event store and the relay on this machine.
 * - append throughput: single-event appends to new streams from 8 concurrent writers
 * - relay latency: from the append's commit to the event arriving through NATS, idle and
 *   while another database of the same server holds a transaction open
 * - relay catch-up: a backlog of events (as NATS or the relay being away leaves) on the bus,
 *   beside the same number of publishes made from this process with as many in flight as the
 *   relay's batch (its floor: the bus alone)
 * - memory: resident set size of this process
 * It uses its own database and bus prefix and removes both afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { connectBus } from '@sleepweave/bus';
import { deleteStreamsOfPrefix } from '@sleepweave/bus/testing';
import { createEventStore, migrateEventStore, startRelay, toEnvelope } from '@sleepweave/event-store';
import { connectDatabase, createLogger, dropDatabase, ensureDatabase } from '@sleepweave/service-kit';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const APPENDS = Number(process.env.BENCH_APPENDS ?? 4000);
const WRITERS = 8;
const LATENCY_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 5000);
/** The relay's batch (its default). */
const RELAY_BATCH = 200;

const id = randomBytes(4).toString('hex');
const database = `sw_bench_${id}`;
const prefix = `b${id}`;
const logger = createLogger('bench', 'silent');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

await ensureDatabase(DATABASE_URL, database);
const sql = connectDatabase(DATABASE_URL, database, { max: WRITERS + 2 });
const bus = await connectBus({ servers: NATS_URL, prefix, name: 'bench', logger });
try {
  await migrateEventStore(sql);
  await bus.ensureStreams(['IDENTITY']);
  const store = createEventStore(sql);
  const rssBefore = process.memoryUsage().rss;

  // 1. append throughput
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < APPENDS) {
        next += 1;
        await store.appendToStream(`bench:${randomUUID()}`, [{ type: 'BenchHappened', data: { n: next } }], {
          expectedVersion: 'no_stream',
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `append: ${APPENDS} single-event appends, ${WRITERS} writers: ${(APPENDS / seconds).toFixed(0)} appends/s (${seconds.toFixed(2)} s)`,
  );

  // 2. relay latency: commit -> NATS -> watcher
  const relay = startRelay({
    connect: (events) => connectDatabase(DATABASE_URL, database, { max: 1, events }),
    bus,
    source: 'identity',
    logger,
    toIntegration: (event) =>
      event.type === 'Ping'
        ? toEnvelope(event, {
            source: 'identity',
            type: 'identity.user.role_granted',
            data: { userId: (event.data as { userId: string }).userId, role: 'participant', grantedAt: new Date().toISOString() },
          })
        : null,
  });
  const waiting = new Map<string, () => void>();
  const watch = await bus.watch({
    stream: 'IDENTITY',
    types: ['identity.user.role_granted'],
    since: new Date(),
    handler: (envelope) => waiting.get((envelope.data as { userId: string }).userId)?.(),
  });
  // let the relay publish the backlog of the throughput run (mapped to null) first
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const measure = async (): Promise<number[]> => {
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const userId = randomUUID();
      const arrived = new Promise<void>((resolve) => waiting.set(userId, resolve));
      const t0 = performance.now();
      await store.appendToStream(`ping:${userId}`, [{ type: 'Ping', data: { userId } }], { expectedVersion: 'no_stream' });
      await arrived;
      latencies.push(performance.now() - t0);
      waiting.delete(userId);
    }
    return latencies.sort((a, b) => a - b);
  };
  const report = (label: string, latencies: number[]) =>
    console.log(
      `${label}, ${LATENCY_SAMPLES} events: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
  const idle = await measure();
  report('relay latency (commit to consumer)', idle);

  // 3. the same while another database of the server holds a transaction open (with an
  // id): a relay that waited for the cluster-wide xmin would stall until it ends.
  const otherDatabase = `${database}_other`;
  await ensureDatabase(DATABASE_URL, otherDatabase);
  const other = connectDatabase(DATABASE_URL, otherDatabase, { max: 1 });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = other.begin(async (tx) => {
    await tx`select pg_current_xact_id()`;
    await held;
  });
  const busy = await measure();
  release();
  await holding;
  await other.end();
  await dropDatabase(DATABASE_URL, otherDatabase);
  report('  while another database holds a transaction open', busy);
  console.log(`  p99 ${(percentile(busy, 99) / percentile(idle, 99)).toFixed(2)}× idle (goal ≤ 2×; p99 goal ≤ 20 ms)`);
  await watch.stop();
  await relay.stop();

  // 4. a backlog: events stored while the relay was stopped, then published by it. Its
  // floor: as many publishes of such events from this process, a batch's worth in flight.
  const toIntegration = (event: Parameters<typeof toEnvelope>[0]) =>
    toEnvelope(event, {
      source: 'identity',
      type: 'identity.user.role_granted',
      data: { userId: (event.data as { userId: string }).userId, role: 'participant', grantedAt: new Date().toISOString() },
    });
  let queued = 0;
  let last = '';
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (queued < BACKLOG) {
        queued += 1;
        const userId = randomUUID();
        const { events } = await store.appendToStream(`ping:${userId}`, [{ type: 'Ping', data: { userId } }], {
          expectedVersion: 'no_stream',
        });
        if (BigInt(events[0]!.globalPosition) > BigInt(last || '0')) last = events[0]!.globalPosition;
      }
    }),
  );
  const floorStarted = performance.now();
  for (let sent = 0; sent < BACKLOG; sent += RELAY_BATCH) {
    const batch = Array.from({ length: Math.min(RELAY_BATCH, BACKLOG - sent) }, () => {
      const userId = randomUUID();
      const event = {
        id: randomUUID(),
        streamId: `ping:${userId}`,
        streamPosition: 1,
        globalPosition: '0',
        transactionId: '0',
        type: 'Ping',
        data: { userId },
        metadata: {},
        createdAt: new Date(),
      };
      return bus.publish(toIntegration(event));
    });
    await Promise.all(batch);
  }
  const floorSeconds = (performance.now() - floorStarted) / 1000;
  const catchUpStarted = performance.now();
  const catchingUp = startRelay({
    connect: (events) => connectDatabase(DATABASE_URL, database, { max: 1, events }),
    bus,
    source: 'identity',
    logger,
    toIntegration: (event) => (event.type === 'Ping' ? toIntegration(event) : null),
  });
  while (catchingUp.status().checkpoint?.globalPosition !== last) await new Promise((resolve) => setTimeout(resolve, 2));
  const catchUpSeconds = (performance.now() - catchUpStarted) / 1000;
  await catchingUp.stop();
  console.log(
    `relay catch-up: ${BACKLOG} events waiting, on the bus in ${catchUpSeconds.toFixed(2)} s (${(BACKLOG / catchUpSeconds).toFixed(0)}/s); floor, the same publishes from this process, ${RELAY_BATCH} in flight: ${(BACKLOG / floorSeconds).toFixed(0)}/s; ratio ${(floorSeconds / catchUpSeconds).toFixed(2)}×`,
  );

  const rssAfter = process.memoryUsage().rss;
  console.log(`memory: rss ${mb(rssBefore)} before, ${mb(rssAfter)} after (${mb(process.memoryUsage().heapUsed)} heap used)`);
} finally {
  await bus.close();
  await sql.end();
  await dropDatabase(DATABASE_URL, database);
  await deleteStreamsOfPrefix(NATS_URL, prefix);
}
