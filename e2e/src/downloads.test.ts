/**
 * What a browser downloads (bench/README.md): the login page's scripts arrive compressed (Brotli for a browser
 * that accepts it), in few files and within the budget, and no source map is published.
 */
import type { Browser, Response } from 'playwright-core';
import { launchBrowser, systemUnderTest, visible, WAIT } from './support/browser';

/** Goals for the login page's JavaScript as sent (bench/README.md, `npm run budget`). */
const LOGIN_MAX_FILES = 25;
const LOGIN_MAX_BYTES = 250 * 1024;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('what a browser downloads', () => {
  it('sends the login page compressed, in at most 25 scripts and 250 KB, with no source maps', async () => {
    const { baseUrl } = systemUnderTest();
    const context = await browser.newContext({
      baseURL: baseUrl,
      extraHTTPHeaders: { 'Accept-Encoding': 'br, gzip' },
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT);
      const responses: Response[] = [];
      page.on('response', (response) => responses.push(response));
      await page.goto('/login');
      await visible(page.getByRole('heading', { name: 'Login Sistem Sertifikasi' }));
      await page.waitForLoadState('networkidle');

      const html = responses.find((r) => r.request().resourceType() === 'document');
      expect(html?.headers()['content-encoding']).toBe('br');
      expect(html?.headers().vary).toMatch(/accept-encoding/i);

      const scripts = responses.filter((r) => r.request().resourceType() === 'script');
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.length).toBeLessThanOrEqual(LOGIN_MAX_FILES);
      let sent = 0;
      for (const script of scripts) {
        expect({ url: script.url(), encoding: script.headers()['content-encoding'] }).toEqual({
          url: script.url(),
          encoding: 'br',
        });
        expect(script.headers().vary).toMatch(/accept-encoding/i);
        sent += (await script.request().sizes()).responseBodySize;
        const body = await script.text();
        expect(body).not.toMatch(/sourceMappingURL=/);
        const map = await context.request.get(`${script.url()}.map`);
        expect(map.status()).toBe(404);
      }
      expect(sent).toBeLessThanOrEqual(LOGIN_MAX_BYTES);
    } finally {
      await context.close();
    }
  });
});
