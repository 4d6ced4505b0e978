import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from './idempotency';

describe('idempotencyKeys', () => {
  it('keeps one key per thing until it is made, and gives a new one after', () => {
    const keys = idempotencyKeys();
    const first = keys.for({ body: 'Cool night' });
    expect(keys.for({ body: 'Cool night' })).toBe(first);
    keys.made({ body: 'Cool night' });
    expect(keys.for({ body: 'Cool night' })).not.toBe(first);
  });

  it('lets another thing made meanwhile not take the key of the one still on its way', () => {
    const keys = idempotencyKeys();
    keys.for({ body: 'A' });
    const b = keys.for({ body: 'B' }); // B is sent while A is on its way
    keys.made({ body: 'A' }); // A's answer comes
    expect(keys.for({ body: 'B' })).toBe(b); // B's answer lost: sent again with its key
  });

  it('gives the same words sent again on purpose, after something else was sent, a new key (only the last thing keeps its own)', () => {
    const keys = idempotencyKeys();
    const lost = keys.for({ body: 'Hello all' }); // its answer lost: it may be made
    keys.for({ body: 'Something else' });
    keys.made({ body: 'Something else' });
    expect(keys.for({ body: 'Hello all' })).not.toBe(lost);
  });
});
