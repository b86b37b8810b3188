import net from 'node:net';

/** What Fastify's `trustProxy` receives: nothing trusted, a hop count, or proxy addresses/CIDRs. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Reads TRUST_PROXY (docs/rules.md#sign-in): unset/false/0 -> the socket's address; a whole number
 * -> that many proxy hops; otherwise a comma-separated list of proxy addresses or CIDRs. `true` means
 * one hop (a single reverse proxy in front), never "trust every X-Forwarded-For entry", so a client
 * cannot choose its own address.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  const lower = text.toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (!entries.length || bad.length) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses/CIDRs ` +
        `(e.g. 1, or 10.0.0.0/8,192.168.1.5); cannot read "${bad.join(', ') || text}"`,
    );
  }
  return entries;
}

/**
 * The setting as Fastify takes it. Fastify ignores a bare hop count (it cannot tell a proxy from a
 * direct client), so a count becomes "the nearest N hops are proxies": only right when clients can
 * reach the API solely through those proxies, which is what setting a count declares.
 */
export function fastifyTrustProxy(
  tp: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof tp === 'number') return tp > 0 ? (_address, hop) => hop < tp : false;
  return tp;
}
