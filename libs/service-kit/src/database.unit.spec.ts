import { describe, expect, it } from 'vitest';
import { connectDatabase } from './database.ts';

// postgres.js connects lazily: no server is asked here
describe('connectDatabase', () => {
  it('never recycles a connection that holds a session lock; a pool recycles its connections (30 to 60 min)', async () => {
    const locking = connectDatabase('postgres://postgres@127.0.0.1:5432', 'sw_unit_never_connected', { max: 1, holdsSessionLock: true });
    const pool = connectDatabase('postgres://postgres@127.0.0.1:5432', 'sw_unit_never_connected');
    try {
      expect(locking.options.max_lifetime).toBeNull();
      // postgres.js's default: a function drawing 30 to 60 minutes per connection
      const lifetime = pool.options.max_lifetime as unknown as number | (() => number);
      expect(typeof lifetime === 'function' ? lifetime() : lifetime).toBeGreaterThanOrEqual(30 * 60);
    } finally {
      await Promise.all([locking.end(), pool.end()]);
    }
  });
});
