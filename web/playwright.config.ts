import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// E2E_PORT / E2E_SERVICE_PORT_BASE / E2E_NAME let two e2e runs on one machine stay apart.
const port = Number(process.env.E2E_PORT ?? 3100);
const servicePortBase = process.env.E2E_SERVICE_PORT_BASE ?? '4100';
const name = process.env.E2E_NAME ?? 'e2e';
// identity's mail goes to an SMTP catcher (globalSetup) that writes it to E2E_MAIL_DIR for the specs
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 21000);
process.env.E2E_SMTP_PORT = String(smtpPort);
process.env.E2E_MAIL_DIR ??= join(tmpdir(), `sleepweave-${name}-mail`);

/**
 * End-to-end tests against the whole local stack (gateway + services + web/dist), run by
 * `npm run test:e2e` after the web build. Chromium is Debian's (no `playwright install`).
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/mail-catcher.setup.ts',
  outputDir: `../test-results/${name}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: '../playwright-report' }]] : 'list',
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // npm start's stack on the suite's own databases and streams, removed before it starts
    // and after it stops (e2e/support/stack.ts)
    command: 'node --import tsx web/e2e/support/stack.ts',
    cwd: repoRoot,
    url: `http://localhost:${port}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // a SIGTERM, so that the stack stops through its shutdown and its data is removed after
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    // the stack's warnings and errors in the test output, so that a failure shows what the
    // services saw (info lines would drown it)
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      DB_PREFIX: `sleepweave_${name}_`,
      BUS_PREFIX: name,
      SERVICE_PORT_BASE: servicePortBase,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      // every spec signs up its own users from 127.0.0.1
      REGISTER_RATE_LIMIT_PER_IP: '1000',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    },
  },
});
