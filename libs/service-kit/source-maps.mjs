/**
 * Preloaded into every compiled app (`--import=@sleepweave/service-kit/source-maps`, in
 * APP_NODE_ARGS of infra/services.mjs and the container images' CMD): stack traces name the
 * TypeScript sources. A file's source map is read when a stack trace first passes through
 * that file, and only then; Node's own `--enable-source-maps` reads and parses the map of
 * every module that names one as the module loads (ours, and those of pdfkit, fontkit,
 * simple-statistics, nats ...), and keeps them all for as long as the process runs
 * (docs/performance.md, "Idle memory"). source-map-support itself (and the source-map
 * library it parses maps with, ~0.4 MiB of heap) loads with the first stack trace too.
 *
 * Not for TypeScript run through tsx (tests, `npm run dev`): tsx maps its own output.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

Error.prepareStackTrace = function firstStackTrace(error, callSites) {
  // V8's own format while the library loads (a stack trace made meanwhile does not come back here)
  Error.prepareStackTrace = undefined;
  require('source-map-support').install({
    environment: 'node',
    // the apps' own handlers (service-kit) decide what an uncaught exception does
    handleUncaughtExceptions: false,
  });
  return Error.prepareStackTrace(error, callSites);
};
