/**
 * malloc's free memory given back to the system (glibc's malloc_trim(0), src/malloc_trim.c).
 *
 * Why: free() returns memory only from the top of one of malloc's arenas; what a Node process
 * frees between chunks still in use stays resident for as long as the process runs: 3–5 MB in
 * each idle Sleepweave app after its start, 5–8 MB in some after a few people's visits
 * (docs/performance.md, "What was found and fixed"). The service kit calls this once a process
 * has gone idle, at the look after its compacting collection (libs/service-kit/src/memory.ts).
 *
 * Why an addon of its own: no maintained npm package offers it, and a general FFI (koffi) costs
 * each process 3 MB of RSS to load, as much as the call gives back. This one is compiled at
 * install (node-gyp, with the C compiler and Node's headers of the machine). Where it could not
 * be built, or the C library is not glibc, `trimMalloc` does nothing and `available` says so.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** @type {{ trim(): boolean } | null} */
let addon = null;
try {
  addon = require('./build/Release/malloc_trim.node');
} catch {
  addon = null;
}

/** Whether the addon was built and loaded here. */
export const available = addon !== null;

/** Gives malloc's free pages back; true if any went back. */
export const trimMalloc = () => (addon === null ? false : addon.trim());
