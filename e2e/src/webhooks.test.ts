/**
 * Scenario: a partner's system is told. The administrator adds a webhook on 'Webhook' (a local
 * receiver: the system under test runs with WEBHOOK_ALLOW_PRIVATE=true), copies the secret shown
 * once, sends 'Kirim Tes' and sees it arrive, signed per Standard Webhooks with that secret, in the
 * receiver and in 'Riwayat Pengiriman'. 'Log Notifikasi' opens beside it. At 1366 px and on a phone
 * (390 px): the screens work and nothing scrolls sideways.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { apiCaller } from './support/api';
import {
  collectPageErrors,
  eventually,
  gone,
  launchBrowser,
  newPage,
  openFromMenu,
  PHONE,
  runSuffix,
  screenshot,
  signIn,
  systemUnderTest,
  toast,
  visible,
} from './support/browser';
import { expectNoSidewaysScroll } from './support/layout';
import { makeCompany } from './support/register';

const suffix = runSuffix();
const stamp = Date.now().toString(36).toUpperCase();
const COMPANY = `PT Lembaga Webhook${suffix} ${stamp}`;

interface Arrival {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let browser: Browser;
let token: string;
let receiver: http.Server;
let hookUrl: string;
const arrivals: Arrival[] = [];
const api = apiCaller(() => token);

beforeAll(async () => {
  browser = await launchBrowser();
  const { adminPassword } = systemUnderTest();
  token = String((await api('POST', '/api/login', { username: 'admin', password: adminPassword })).token);
  await makeCompany(api, { name: COMPANY, website: 'https://webhook-lembaga.co.id' });
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      arrivals.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${stamp}`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const main = (page: Page) => page.getByRole('main');
const row = (page: Page) => main(page).getByRole('row').filter({ hasText: hookUrl });

/** Whether a Standard Webhooks signature (`v1,<base64>`) is the secret's HMAC of this delivery. */
function signedWith(secret: string, arrival: Arrival): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${String(arrival.headers['webhook-id'])}.${String(arrival.headers['webhook-timestamp'])}.${arrival.body}`;
  const expected = createHmac('sha256', key).update(content).digest();
  return String(arrival.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [version, value = ''] = sig.split(',');
      const given = Buffer.from(value, 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

describe('Webhook and Log Notifikasi', () => {
  it('adds a webhook, shows its secret once, and Kirim Tes reaches the receiver signed with it (1366 px)', async () => {
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await openFromMenu(page, 'Master Data', 'Webhook', '/webhook');
      await main(page)
        .getByRole('button', { name: /^Tambah/ })
        .click();
      const dialog = await visible(page.getByRole('dialog', { name: 'Tambah Webhook' }));
      const company = dialog.getByRole('combobox', { name: 'Perusahaan' });
      await company.fill(COMPANY);
      await page.getByRole('listbox').getByRole('option', { name: COMPANY, exact: true }).click();
      await dialog.getByLabel(/^URL/).fill(hookUrl);
      await dialog.getByLabel(/^Keterangan/).fill('ERP mitra');
      await dialog.getByRole('combobox', { name: 'Event' }).fill('reminder.due');
      await page
        .getByRole('listbox')
        .getByRole('option', { name: 'Pengingat jatuh tempo (reminder.due)' })
        .click();
      await screenshot(page, 'webhook-1366-form');
      await dialog.getByRole('button', { name: 'Simpan Data' }).click();

      // The secret, this once.
      const secretDialog = await visible(page.getByRole('dialog', { name: 'Secret Webhook' }));
      await visible(secretDialog.getByText(/secret tidak akan ditampilkan lagi/));
      const secret = await secretDialog.getByLabel('Secret').inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      await screenshot(page, 'webhook-1366-secret');
      await secretDialog.getByRole('button', { name: 'Tutup' }).click();
      await gone(secretDialog);
      const hook = await visible(row(page));
      await visible(hook.getByText('Pengingat jatuh tempo'));
      await page.reload();
      await visible(row(page));
      expect(await page.content()).not.toContain(secret);

      // 'Kirim Tes': tried at once, the toast says it went, the receiver has it, signed.
      await row(page).getByRole('button', { name: 'Kirim Tes' }).click();
      await visible(toast(page, 'Tes webhook terkirim'));
      await eventually(() => expect(arrivals).toHaveLength(1));
      const [test] = arrivals;
      expect(JSON.parse(test!.body)).toMatchObject({ type: 'webhook.test' });
      expect(signedWith(secret, test!)).toBe(true);
      expect(signedWith(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, test!)).toBe(false);

      // Its delivery log: the event, sent, the answer.
      await row(page).getByRole('button', { name: 'Riwayat Pengiriman' }).click();
      const log = await visible(page.getByRole('dialog', { name: /Riwayat Pengiriman/ }));
      await visible(log.getByText('webhook.test', { exact: true }));
      await visible(log.getByText(/HTTP 204/));
      await screenshot(page, 'webhook-1366-deliveries');
      await log.getByRole('button', { name: 'Tutup' }).click();
      await gone(log);
      await expectNoSidewaysScroll(page);

      await openFromMenu(page, 'Master Data', 'Log Notifikasi', '/notification-log');
      await visible(main(page).getByRole('heading', { name: 'Log Notifikasi' }));
      await visible(main(page).getByRole('searchbox', { name: 'Cari Notifikasi' }));
      await screenshot(page, 'notification-log-1366');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works on a phone (390 px): the webhook, Kirim Tes, its log and Log Notifikasi, nothing scrolling sideways', async () => {
    const { context, page } = await newPage(browser, PHONE);
    const errors = collectPageErrors(page);
    try {
      await signIn(page, 'admin', systemUnderTest().adminPassword);
      await page.goto('/webhook');
      await visible(main(page).getByRole('heading', { name: 'Webhook' }));
      await main(page).getByRole('searchbox', { name: 'Cari Webhook' }).fill(stamp);
      const card = await visible(main(page).getByText(hookUrl).first());
      await screenshot(page, 'webhook-390');
      await expectNoSidewaysScroll(page);
      const before = arrivals.length;
      await main(page).getByRole('button', { name: 'Kirim Tes' }).first().click();
      await visible(toast(page, 'Tes webhook terkirim'));
      await eventually(() => expect(arrivals.length).toBe(before + 1));
      await main(page).getByRole('button', { name: 'Riwayat Pengiriman' }).first().click();
      const log = await visible(page.getByRole('dialog', { name: /Riwayat Pengiriman/ }));
      await visible(log.getByText(/HTTP 204/).first());
      await screenshot(page, 'webhook-390-deliveries');
      await expectNoSidewaysScroll(page);
      await log.getByRole('button', { name: 'Tutup' }).click();
      await gone(log);
      expect(await card.isVisible()).toBe(true);
      await page.goto('/notification-log');
      await visible(main(page).getByRole('heading', { name: 'Log Notifikasi' }));
      await screenshot(page, 'notification-log-390');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
