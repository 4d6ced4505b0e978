import { isIPv6 } from 'node:net';

/**
 * The unit a client's address is counted in (limits per address): an IPv4 address as it is,
 * an IPv6 address by its /64 network. One IPv6 host is given a whole /64 and may use any
 * address of it, so counted one by one a single client had 2^64 of them.
 */
export function addressGroup(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const address = ip.split('%')[0]!; // a zone (fe80::1%eth0) names the interface only
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const parts = (text: string) => (text === '' ? [] : text.split(':'));
  const front = parts(head);
  const back = tail === undefined ? [] : parts(tail);
  // an IPv4 address written at the end stands for two groups
  const backGroups = back.length + (back.at(-1)?.includes('.') ? 1 : 0);
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - backGroups)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
