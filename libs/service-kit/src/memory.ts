import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { trimMalloc } from '@sleepweave/malloc-trim';
import type { Logger } from 'pino';

/**
 * Gives the process's spare memory back once it goes quiet after a burst: its start
 * (migrations, consumers catching up, a research run), or a busy spell of requests.
 *
 * V8 grows its young generation during a burst and shrinks it again only at a collection made
 * while little is being allocated; a process that then sits idle allocates too little to
 * collect at all, so it kept the burst's size (docs/performance.md, "Idle memory": 15–30 MB
 * a process). Every `everyMs` this looks at the event loop: once it has been idle for
 * `idleForMs`, and the heap has grown since the last collection made here and holds at least
 * `slackBytes` more than it uses, or the process's RSS has grown by `slackBytes` since then, it
 * runs one full collection (tens of milliseconds, only when nothing else is running), and one
 * more at the next idle look if that left much unused (V8 shrinks its young generation only at
 * a collection that follows little allocation). While busy it does nothing; then it waits for
 * the heap or the RSS to grow again, so an idle process is not collected over and over.
 *
 * Its collections also compact the old generation (compactingCollection): a start leaves each
 * app's old generation with 2.5–4 MB of holes spread over its pages, which V8's own full
 * collections keep, since they move only pages that are mostly empty. At the next look malloc's
 * free pages go back too (@sleepweave/malloc-trim: 3–5 MB an app after its start that free()
 * alone keeps, and 5–8 MB in some apps after a few people's visits, where the heap had changed
 * too little to be collected: hence the RSS's growth as a reason). And what a burst opened
 * (database connections, sockets) closes a while after it and frees its memory then: after
 * `settleAfterMs` more of idleness, one more pass.
 */
export interface MemoryRelease {
  /** Collections made so far. */
  readonly collections: number;
  stop(): void;
}

export interface MemoryReleaseOptions {
  /** How often the event loop is looked at (ms). */
  everyMs?: number;
  /** Event-loop utilisation (0–1) over a look's `everyMs` below which the process was idle then. */
  idleBelow?: number;
  /** How long the process must have been idle before a collection (ms; a multiple of `everyMs`). */
  idleForMs?: number;
  /** How long idle after a release before the one settling pass (ms; a multiple of `everyMs`). */
  settleAfterMs?: number;
  /** Committed heap beyond what it uses, or RSS grown since the last collection, worth a collection (bytes). */
  slackBytes?: number;
  logger?: Logger;
  /** The event loop's utilisation since the previous call (tests replace it). */
  utilization?: () => number;
  /** The heap's committed and used bytes (tests replace it). */
  heap?: () => { committed: number; used: number };
  /** The process's resident set size, bytes (tests replace it). */
  rss?: () => number;
  /** A full, compacting collection (tests replace it). */
  collect?: () => void;
  /** malloc's free pages given back (tests replace it). */
  trim?: () => void;
}

export const MEMORY_RELEASE_EVERY_MS = 2_000;
const IDLE_BELOW = 0.05;
/**
 * Longer than V8's window for its allocation rate (5 s): a collection after this long idle
 * finds the rate low and shrinks the young generation.
 */
const IDLE_FOR_MS = 6_000;
const SLACK_BYTES = 4 * 1024 * 1024;
/**
 * Longer than what a burst's connections stay open idle: the database pools'
 * DB_IDLE_TIMEOUT_SECONDS (30 s by default), Node's HTTP keep-alive (5 s).
 */
const SETTLE_AFTER_MS = 40_000;
/** How much the committed heap must grow after a collection before the next one. */
const GROWTH_BYTES = 1024 * 1024;

function eventLoopUtilization(): () => number {
  let previous = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, previous);
    previous = now;
    return delta.utilization;
  };
}

function heapNow(): { committed: number; used: number } {
  const heap = getHeapStatistics();
  return { committed: heap.total_physical_size, used: heap.used_heap_size };
}

let exposedGc: (() => void) | null = null;

/**
 * V8's own full collection (what `--expose-gc` gives scripts as `gc`), taken without exposing
 * it to every context: the flag is on only while one new context is made to read it.
 */
export function fullCollection(): () => void {
  if (exposedGc) return exposedGc;
  const global = (globalThis as { gc?: () => void }).gc;
  if (typeof global === 'function') return (exposedGc = global);
  setFlagsFromString('--expose-gc');
  try {
    exposedGc = runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return exposedGc;
}

/**
 * A full collection that also moves the live objects of every fragmented old-generation page
 * together, so that the pages it empties go back to the system: V8's own full collections
 * compact only pages that are mostly free. An idle service's old generation, some 17 MB used,
 * held 20.5–23 MB of pages after V8's collection and 18–18.7 after this one (4–5 MB of RSS less
 * a process, docs/performance.md, "Idle memory"). It takes about twice as long (60 ms against
 * 25 for 15 MB live), which only an idle process pays. V8 reads its flag for this as a
 * collection starts; it is on for this one only.
 */
export function compactingCollection(): void {
  const collect = fullCollection();
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collect();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

export function releaseMemoryWhenIdle(options: MemoryReleaseOptions = {}): MemoryRelease {
  const everyMs = options.everyMs ?? MEMORY_RELEASE_EVERY_MS;
  const idleBelow = options.idleBelow ?? IDLE_BELOW;
  const idleLooks = Math.max(1, Math.round((options.idleForMs ?? IDLE_FOR_MS) / everyMs));
  const settleLooks = Math.max(1, Math.round((options.settleAfterMs ?? SETTLE_AFTER_MS) / everyMs));
  const slackBytes = options.slackBytes ?? SLACK_BYTES;
  const utilization = options.utilization ?? eventLoopUtilization();
  const heap = options.heap ?? heapNow;
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const collect = options.collect ?? compactingCollection;
  const trim = options.trim ?? trimMalloc;
  // The heap as the last collection left it; 0: none yet (the start is a burst).
  let committedAfter = 0;
  // The RSS as the last collection left it (at first, as it was when this began).
  let rssAfter = rss();
  // V8 shrinks its young generation at a collection only if little was allocated since the one
  // before: the first collection after a burst may leave it large, the next idle one does not.
  let followUp = false;
  let collections = 0;
  let idleFor = 0;

  // Idle looks in a row until the settling pass (below); 0: none due.
  let settleIn = 0;
  // malloc is trimmed at the look after a collection: the buffers it found dead are freed by
  // V8's background threads after it returns (trimmed right after it, 5–8 MB stayed in some
  // apps after a few people's visits; none at the next look).
  let trimDue = false;

  const release = (why: string) => {
    const before = heap();
    const started = performance.now();
    idleFor = 0;
    collect();
    collections += 1;
    trimDue = true;
    const after = heap();
    committedAfter = after.committed;
    rssAfter = rss();
    options.logger?.debug(
      { why, committedBefore: before.committed, committedAfter: after.committed, ms: Math.round(performance.now() - started) },
      'idle: memory given back',
    );
    return after;
  };

  const timer = setInterval(() => {
    if (trimDue) {
      trimDue = false;
      trim();
      rssAfter = rss();
    }
    const idle = utilization() < idleBelow;
    idleFor = idle ? idleFor + 1 : 0;
    // What a burst opened closes some while after it (connections: the pools' idle timeout, HTTP
    // keep-alive), and frees its memory then: one more pass once the process has stayed idle
    // that long after a release, a busy look starting the count again.
    if (settleIn > 0) {
      settleIn = idle ? settleIn - 1 : settleLooks;
      if (settleIn === 0) {
        release('settled');
        return;
      }
    }
    if (idleFor < idleLooks) return;
    const before = heap();
    const spare = before.committed - before.used;
    const grown = before.committed >= committedAfter + GROWTH_BYTES;
    const heapWorthIt = spare >= slackBytes && (grown || followUp);
    if (!heapWorthIt && rss() < rssAfter + slackBytes) {
      followUp = false;
      return;
    }
    const after = release(heapWorthIt ? 'heap' : 'rss');
    followUp = !followUp && after.committed - after.used >= slackBytes;
    settleIn = settleLooks;
  }, everyMs);
  timer.unref();

  return {
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}
