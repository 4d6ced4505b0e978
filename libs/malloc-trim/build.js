/**
 * npm's install step of this package: compiles the addon with node-gyp (which npm puts on the
 * PATH of its scripts). A machine without a C compiler still installs and runs Sleepweave: the
 * build's failure is printed and the package then does nothing (index.js), so an app gives
 * back a few MB less when idle.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const built = spawnSync('node-gyp', ['rebuild'], {
  cwd: fileURLToPath(new URL('.', import.meta.url)),
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (built.status !== 0) {
  console.warn(
    `@sleepweave/malloc-trim: not built (node-gyp ${built.error ? built.error.message : `exited with ${built.status}`}); ` +
      'the apps run without it, and give back a few MB less memory when idle',
  );
}
