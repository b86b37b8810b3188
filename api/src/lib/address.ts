import net from 'node:net';

/** Eight 16-bit groups of an IPv6 address (a dotted IPv4 tail is two groups), or undefined. */
function groupsOf(address: string): number[] | undefined {
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) is written as the two groups it stands for.
  const text = address.replace(/:(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) => {
    const [w, x, y, z] = [a, b, c, d].map(Number) as [number, number, number, number];
    return `:${((w << 8) | x).toString(16)}:${((y << 8) | z).toString(16)}`;
  });
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [head = '', rest] = text.split('::');
  const before = parse(head);
  const after = parse(rest ?? '');
  const missing = 8 - before.length - after.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...before, ...Array<number>(missing).fill(0), ...after];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The key every per-address limit counts a client under (docs/rules.md#faults-and-overload): an IPv4
 * address as it is; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as that IPv4 address; any other
 * IPv6 address as its /64 network (`2001:db8:0:1::/64`), since one subscriber or host is handed a
 * whole /64 and could otherwise pick a new address for every request. A zone (`%eth0`) is left off;
 * anything else (not an address) is kept as it is, in lower case.
 */
export function addressKey(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  const address = trimmed.includes('%') ? trimmed.slice(0, trimmed.indexOf('%')) : trimmed;
  if (!net.isIPv6(address)) return address;
  const groups = groupsOf(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
