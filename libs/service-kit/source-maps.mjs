/**
 * Preloaded into every compiled app (`--import=@sleepweave/service-kit/source-maps`, in
 * APP_NODE_ARGS of infra/services.mjs and the container images' CMD): stack traces name the
 * TypeScript sources. A file's source map is read when a stack trace first passes through
 * that file, and only then; Node's own `--enable-source-maps` reads and parses the map of
 * every module that names one as the module loads (ours, and those of pdfkit, fontkit,
 * simple-statistics, nats ...), and keeps them all for as long as the process runs
 * (docs/performance.md, "Idle memory").
 *
 * Not for TypeScript run through tsx (tests, `npm run dev`): tsx maps its own output.
 */
import sourceMapSupport from 'source-map-support';

sourceMapSupport.install({
  environment: 'node',
  // the apps' own handlers (service-kit) decide what an uncaught exception does
  handleUncaughtExceptions: false,
});
