import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.ts';

describe('redactUrl', () => {
  it.each([
    ['/api/validate-reset-token?token=abc123', '/api/validate-reset-token?token=[redacted]'],
    ['/reset?x=1&token=abc&y=2', '/reset?x=1&token=[redacted]&y=2'],
    ['/api/library/cards?search=linen', '/api/library/cards?search=linen'],
    ['/api/user', '/api/user'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
