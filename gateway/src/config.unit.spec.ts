import { describe, expect, it } from 'vitest';
import { readGatewayConfig } from './config.ts';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['1', 1],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
  ])('%s -> %j', (value, expected) => {
    expect(readGatewayConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses true: every hop trusted, the client would choose her own address for the rate limits', () => {
    expect(() => readGatewayConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true would trust the address a client writes/);
  });
});
