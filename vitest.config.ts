import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '**/dist/**', 'web/e2e/**'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['**/*.unit.spec.ts', '**/*.unit.spec.tsx'],
          exclude,
          environment: 'node',
          // screen tests type and pick options through jsdom, which takes seconds on a busy
          // 2-core machine (the calculator's blend test passed 5 s there): room, not a limit
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/*.int.spec.ts'],
          exclude,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file makes its own database and bus prefix, so files may run side by side;
          // two at a time fits a 2-core machine.
          maxWorkers: 2,
          // after the unit project when both run in one `vitest run`
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // The whole system as processes, with faults injected (tests/system): one file at a
          // time, alone, since each runs a PostgreSQL, a NATS and a dozen processes of its own.
          name: 'system',
          include: ['**/*.system.spec.ts'],
          exclude,
          environment: 'node',
          testTimeout: 900_000,
          hookTimeout: 180_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
