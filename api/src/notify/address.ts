/**
 * Where a webhook may point (docs/rules.md#notifications): HTTPS to a public address, on port 443
 * or a port `WEBHOOK_ALLOW_PORTS` names. Private, loopback, link-local (and the other non-public)
 * networks are refused, unless the deployment allows them (`WEBHOOK_ALLOW_PRIVATE=true`: tests and
 * closed networks, plain HTTP and any port then too). Checked when a webhook is saved and again at
 * every delivery, on the address the connection actually uses (the lookup below), so a name that
 * later resolves to a private address (DNS rebinding) is refused too.
 */
import dns from 'node:dns';
import net from 'node:net';

/** Networks a webhook never reaches unless private addresses are allowed. */
const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b::', 96], // NAT64 (maps IPv4, private ones included)
  ['64:ff9b:1::', 48], // local-use NAT64 (a private network's translator)
  ['::', 96], // IPv4-compatible (::a.b.c.d, deprecated; reaches the IPv4 address)
  ['::ffff:0:0:0', 96], // IPv4-translated (::ffff:0:a.b.c.d)
  ['fec0::', 10], // site-local (deprecated; private in effect)
  ['2002::', 16], // 6to4 (embeds an IPv4 address, private ones included)
] as const) {
  BLOCKED.addSubnet(address, prefix, 'ipv6');
}

/** True when an IP address lies in a network a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return BLOCKED.check(address, 'ipv6');
  }
  return BLOCKED.check(address, 'ipv4');
}

export const WEBHOOK_URL_MESSAGES = {
  https: 'URL webhook harus memakai HTTPS',
  private: 'Alamat webhook mengarah ke jaringan privat, loopback atau link-local',
  unresolved: 'Alamat webhook tidak dapat ditemukan',
  credentials: 'URL webhook tidak boleh berisi nama pengguna atau password',
  port: 'Port URL webhook tidak diizinkan (hanya 443, kecuali yang diizinkan pengaturan server)',
} as const;

/** Ports a webhook may use besides 443 (WEBHOOK_ALLOW_PORTS): listed ones, or `*` for any. */
export type AllowedPorts = readonly number[] | '*';

/** Where a webhook may point, as the deployment says (config.ts). */
export interface AddressRules {
  /** WEBHOOK_ALLOW_PRIVATE: private networks, plain HTTP and any port. */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOW_PORTS: ports besides 443. */
  allowPorts: AllowedPorts;
}

/** The port a URL connects to: its own, else its scheme's (443, 80). */
const portOf = (url: URL) => Number(url.port || (url.protocol === 'http:' ? 80 : 443));

/** True when the URL's port may not be used: not 443, not listed, and private networks not allowed. */
export function portRefused(url: URL, rules: AddressRules): boolean {
  if (rules.allowPrivate || rules.allowPorts === '*') return false;
  const port = portOf(url);
  return port !== 443 && !rules.allowPorts.includes(port);
}

/** The host of a URL as a lookup takes it (IPv6 without brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook URL before it is saved: HTTPS (unless private addresses are allowed), no
 * credentials in it, an allowed port, and a host that resolves only to public addresses (unless
 * allowed). Answers the message to show, or null when it may be saved.
 */
export async function webhookUrlProblem(raw: string, rules: AddressRules): Promise<string | null> {
  const url = new URL(raw);
  const { allowPrivate } = rules;
  if (url.username || url.password) return WEBHOOK_URL_MESSAGES.credentials;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return WEBHOOK_URL_MESSAGES.https;
  if (portRefused(url, rules)) return WEBHOOK_URL_MESSAGES.port;
  if (allowPrivate) return null;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = net.isIP(host)
      ? [host]
      : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return WEBHOOK_URL_MESSAGES.unresolved;
  }
  if (addresses.length === 0) return WEBHOOK_URL_MESSAGES.unresolved;
  return addresses.some(isPrivateAddress) ? WEBHOOK_URL_MESSAGES.private : null;
}

/** Raised by the guarded lookup: the connection would have reached a refused address. */
export class PrivateAddressError extends Error {
  constructor() {
    super(WEBHOOK_URL_MESSAGES.private);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that refuses private addresses: the socket connects to exactly the
 * address checked here, so what the name resolves to between the check and the connection cannot
 * differ (no DNS rebinding).
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses;
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) {
      return callback(new PrivateAddressError(), []);
    }
    if (options.all) return callback(null, list);
    const first = list[0]!;
    return callback(null, first.address, first.family);
  });
}

/** An IP literal host is never looked up by the socket: checked here instead. */
export function literalHostRefused(url: URL): boolean {
  const host = hostOf(url);
  return net.isIP(host) !== 0 && isPrivateAddress(host);
}
