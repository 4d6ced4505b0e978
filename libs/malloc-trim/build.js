/**
 * npm's install step of this package: compiles the addon with node-gyp (which npm puts on the
 * PATH of its scripts). A machine without a C compiler still installs and runs Sleepweave: the
 * build's failure is printed and the package then does nothing (index.js), so an app gives
 * back a few MB less when idle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Node's own headers where this Node has them (Debian's, and Node's release archives, keep them
// beside the binary): node-gyp then needs no download, which a closed network would refuse.
const prefix = dirname(dirname(process.execPath));
const localHeaders = !process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h'));
const built = spawnSync('node-gyp', ['rebuild', ...(localHeaders ? [`--nodedir=${prefix}`] : [])], {
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
