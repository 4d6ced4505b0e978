import { describe, expect, it } from 'vitest';
import { readGatewayConfig } from './config.ts';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
  ])('%s -> %j', (value, expected) => {
    expect(readGatewayConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });
});
