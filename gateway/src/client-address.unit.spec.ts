import { describe, expect, it } from 'vitest';
import { addressGroup } from './client-address.ts';

describe('addressGroup', () => {
  it('counts an IPv4 address as it is, also when written as IPv6', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const group = '2001:db8:85a3:42::/64';
    for (const ip of [
      '2001:db8:85a3:42::1',
      '2001:0db8:85a3:0042:0000:0000:0000:0002',
      '2001:db8:85a3:42:ffff:ffff:ffff:ffff',
      '2001:db8:85a3:42:1::7',
      '2001:db8:85a3:42::192.0.2.1',
      '2001:db8:85a3:42::1%eth0',
    ]) {
      expect(addressGroup(ip)).toBe(group);
    }
    expect(addressGroup('2001:db8:85a3:43::1')).toBe('2001:db8:85a3:43::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
  });
});
