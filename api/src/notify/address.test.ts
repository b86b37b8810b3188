/** Which addresses and ports a webhook may reach (docs/rules.md#notifications). */
import { isPrivateAddress, portRefused, webhookUrlProblem, WEBHOOK_URL_MESSAGES } from './address';

const PUBLIC_ONLY = { allowPrivate: false, allowPorts: [] } as const;

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.20.30.40',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    // IPv4-compatible (::/96): reaches the IPv4 address, private or not.
    '::127.0.0.1',
    '::a00:1',
    '::8.8.8.8',
    // IPv4-translated (::ffff:0:0:0/96).
    '::ffff:0:a00:1',
    '::ffff:0:7f00:1',
    '::ffff:0:8.8.8.8',
    // Local-use NAT64 (64:ff9b:1::/48) beside the well-known prefix.
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    // Site-local (fec0::/10).
    'fec0::1',
    'feff:ffff::1',
    // 6to4 (2002::/16): 192.168.1.1 and 8.8.8.8 inside.
    '2002:c0a8:101::1',
    '2002:808:808::1',
    'bukan-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:5db8:d70e',
    // Just outside the refused IPv6 ranges.
    '64:ff9b:2::1',
    'fe00::1',
    '2003::1',
    '2001:4860:4860::8888',
  ])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('ports', () => {
  const url = (port: string) => new URL(`https://93.184.215.14${port}/hook`);
  it.each<[string, Parameters<typeof portRefused>[1], boolean]>([
    ['', PUBLIC_ONLY, false],
    [':443', PUBLIC_ONLY, false],
    [':8443', PUBLIC_ONLY, true],
    [':22', PUBLIC_ONLY, true],
    [':6379', PUBLIC_ONLY, true],
    [':8443', { allowPrivate: false, allowPorts: [8443, 9443] }, false],
    [':9443', { allowPrivate: false, allowPorts: [8443, 9443] }, false],
    [':22', { allowPrivate: false, allowPorts: [8443, 9443] }, true],
    ['', { allowPrivate: false, allowPorts: [8443] }, false],
    [':22', { allowPrivate: false, allowPorts: '*' }, false],
    [':22', { allowPrivate: true, allowPorts: [] }, false],
  ])('port "%s" with %j refused: %s', (port, rules, refused) => {
    expect(portRefused(url(port), rules)).toBe(refused);
  });
  it('plain HTTP counts as port 80 where it is allowed', () => {
    expect(portRefused(new URL('http://10.0.0.1/x'), { allowPrivate: true, allowPorts: [] })).toBe(false);
  });
});

describe('webhookUrlProblem', () => {
  it('reads IPv4-mapped IPv6 literals as the IPv4 address they hold', async () => {
    expect(await webhookUrlProblem('https://[::ffff:127.0.0.1]/x', PUBLIC_ONLY)).toBe(
      WEBHOOK_URL_MESSAGES.private,
    );
    expect(await webhookUrlProblem('https://[::ffff:93.184.215.14]/x', PUBLIC_ONLY)).toBeNull();
  });
  it.each(['[::a00:1]', '[::ffff:0:a00:1]', '[64:ff9b:1::a00:1]', '[fec0::1]', '[2002:c0a8:101::1]'])(
    'refuses the IPv6 literal %s',
    async (host) => {
      expect(await webhookUrlProblem(`https://${host}/x`, PUBLIC_ONLY)).toBe(WEBHOOK_URL_MESSAGES.private);
    },
  );
  it('refuses a port other than 443 unless the deployment names it', async () => {
    expect(await webhookUrlProblem('https://93.184.215.14:8443/x', PUBLIC_ONLY)).toBe(
      WEBHOOK_URL_MESSAGES.port,
    );
    expect(
      await webhookUrlProblem('https://93.184.215.14:8443/x', { allowPrivate: false, allowPorts: [8443] }),
    ).toBeNull();
    expect(await webhookUrlProblem('https://93.184.215.14:443/x', PUBLIC_ONLY)).toBeNull();
  });
  it('allows private addresses, plain HTTP and any port only when the deployment says so', async () => {
    expect(
      await webhookUrlProblem('http://127.0.0.1:9/x', { allowPrivate: true, allowPorts: [] }),
    ).toBeNull();
    expect(await webhookUrlProblem('http://127.0.0.1:9/x', PUBLIC_ONLY)).toBe(WEBHOOK_URL_MESSAGES.https);
    expect(await webhookUrlProblem('https://127.0.0.1/x', PUBLIC_ONLY)).toBe(WEBHOOK_URL_MESSAGES.private);
  });
});
