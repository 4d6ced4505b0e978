import { describe, expect, it } from 'vitest';
import { retryLogLevel } from './consumer.ts';

/** What fetch throws when nothing listens on the port (undici: a TypeError caused by the connect's error). */
function fetchRefused(): Error {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4181'), { code: 'ECONNREFUSED' });
  return new TypeError('fetch failed', { cause: refused });
}

describe('retryLogLevel', () => {
  it('says a producer refusing the connection at first as information', () => {
    for (const failures of [1, 2, 3]) expect(retryLogLevel(fetchRefused(), failures)).toBe('info');
    // localhost: both addresses refused
    const both = new TypeError('fetch failed', {
      cause: new AggregateError([Object.assign(new Error('::1'), { code: 'ECONNREFUSED' }), new Error('127.0.0.1')]),
    });
    expect(retryLogLevel(both, 1)).toBe('info');
  });

  it('says it as an error once it has refused for longer than a start takes', () => {
    expect(retryLogLevel(fetchRefused(), 4)).toBe('error');
  });

  it('says any other failure as an error at once', () => {
    expect(retryLogLevel(new Error('relation "consumer_catchups" does not exist'), 1)).toBe('error');
    expect(retryLogLevel(new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }), 1)).toBe(
      'error',
    );
    expect(retryLogLevel('ECONNREFUSED', 1)).toBe('error');
  });
});
