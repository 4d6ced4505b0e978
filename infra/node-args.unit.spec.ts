/**
 * Every app runs with the same Node settings (APP_NODE_ARGS) under npm start and in its
 * container image, and those settings keep V8's young generation small.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVICE_PORT_OFFSETS as SETTINGS_PORT_OFFSETS } from '@sleepweave/service-kit';
import { APP_NODE_ARGS, SERVICE_PORT_OFFSETS, servicePortBase, systemCommands } from './services.mjs';

const dockerfile = readFileSync(fileURLToPath(new URL('./docker/Dockerfile', import.meta.url)), 'utf8');

describe('APP_NODE_ARGS', () => {
  it('are what npm start runs every compiled app with', () => {
    for (const command of systemCommands({ base: 4000, compiled: true })) {
      expect(command.args).toEqual([...APP_NODE_ARGS, expect.stringMatching(/\/dist\/server\.js$/)]);
    }
  });

  it('are what the container images run their app with', () => {
    const cmd = dockerfile.split('\n').find((line) => line.startsWith('CMD '));
    expect(cmd).toBe(`CMD ["sh", "-c", "exec node ${APP_NODE_ARGS.join(' ')} \\"$APP_ENTRY\\""]`);
  });

  it('are settings this Node accepts (an app started with them runs)', () => {
    const run = spawnSync(process.execPath, [...APP_NODE_ARGS, '-e', 'console.log("ok")'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('ok');
  });

  it('keep the young generation at 2 × 4 MB however much a process allocates (V8 default: 2 × 16 MB)', () => {
    const burst = `
      const v8 = require('node:v8');
      let keep = [];
      for (let round = 0; round < 40; round++) {
        for (let i = 0; i < 20000; i++) keep.push({ i, s: 'x' + i });
        if (keep.length > 100000) keep = [];
      }
      console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').physical_space_size);`;
    const young = (args: string[]) => Number(spawnSync(process.execPath, [...args, '-e', burst], { encoding: 'utf8' }).stdout);
    expect(young([])).toBeGreaterThan(16 * 1024 * 1024);
    expect(young(APP_NODE_ARGS)).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});

describe('SERVICE_PORT_OFFSETS', () => {
  it("are the same where npm start places the services and where the settings look for them (service-kit's config)", () => {
    expect(SERVICE_PORT_OFFSETS).toEqual(SETTINGS_PORT_OFFSETS);
  });
});

describe('the container images', () => {
  it('hold the packages the apps run with, without the devDependencies (pruned after the build)', () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    const stage = (name: string) => stages.find((text) => text.split('\n')[0]!.endsWith(` AS ${name}`));
    expect(stage('production')).toMatch(/^source AS production\n/);
    expect(stage('production')).toContain('npm prune --omit=dev');
    expect(stage('runtime')).toContain('COPY --from=production /app ./');
    expect(stage('runtime')).not.toContain('--from=source');
  });
});

describe('servicePortBase', () => {
  it('reads SERVICE_PORT_BASE as every setting is read: not set or set empty, the default', () => {
    expect(servicePortBase({})).toBe(4000);
    expect(servicePortBase({ SERVICE_PORT_BASE: '' })).toBe(4000);
    expect(servicePortBase({ SERVICE_PORT_BASE: '4600' })).toBe(4600);
    for (const value of ['abc', '70000', '4000.5', '0', '-1']) expect(servicePortBase({ SERVICE_PORT_BASE: value }), value).toBeNull();
  });
});
