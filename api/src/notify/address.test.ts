/** Which addresses a webhook may reach (docs/rules.md#notifications). */
import { isPrivateAddress, webhookUrlProblem, WEBHOOK_URL_MESSAGES } from './address';

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
    'bukan-ip',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:5db8:d70e'])(
    'allows %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('webhookUrlProblem', () => {
  it('reads IPv4-mapped IPv6 literals as the IPv4 address they hold', async () => {
    expect(await webhookUrlProblem('https://[::ffff:127.0.0.1]/x', false)).toBe(WEBHOOK_URL_MESSAGES.private);
    expect(await webhookUrlProblem('https://[::ffff:93.184.215.14]/x', false)).toBeNull();
  });
  it('allows private addresses and plain HTTP only when the deployment says so', async () => {
    expect(await webhookUrlProblem('http://127.0.0.1:9/x', true)).toBeNull();
    expect(await webhookUrlProblem('http://127.0.0.1:9/x', false)).toBe(WEBHOOK_URL_MESSAGES.https);
  });
});
