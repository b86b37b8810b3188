/**
 * Scenario d: one auth store in the page. After a Master Data screen loads, Module Federation's share
 * scope records exactly one loaded instance of '@sertifikasi/shared-auth' (and of react, shared-ui and
 * shared-ui's core entry), which the remote uses too; there is one toast store; and the remote's list
 * call carried the shell's session (its bearer token).
 */
import type { Browser, Request } from 'playwright-core';
import {
  collectPageErrors,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  systemUnderTest,
  visible,
} from './support/browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Packages loaded once in the page, from the shell, and used by the remote too. */
const SHARED_ONCE = ['@sertifikasi/shared-auth', '@sertifikasi/shared-ui', 'react'];
/** shared-ui's core entry: the remote reaches it only through shared-ui, which is the shell's copy. */
const CORE = '@sertifikasi/shared-ui/core';

interface SharedReport {
  /** Share scopes of every federation instance (host and remotes) where the package is recorded. */
  records: number;
  /** Recorded versions that are loaded, with the build that provided them. */
  loaded: { version: string; from: string; useIn: string[] }[];
  /** Distinct module objects behind those loaded records (the instances the page really holds). */
  instances: number;
  /** For shared-auth: distinct auth store objects among them. */
  stores: number;
  /** The toast store objects these modules export (shared-ui and its core entry). */
  toastStores: unknown[];
}

describe('one auth store in the page', () => {
  it('d. shares one shared-auth (and react) between the shell and the remote, which uses the shell session', async () => {
    const { adminPassword } = systemUnderTest();
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', adminPassword);
    const token = await page.evaluate(() => localStorage.getItem('sertifikasi.token'));
    expect(token).toBeTruthy();

    const userListCalls: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/user') userListCalls.push(request);
    });
    await page
      .getByRole('navigation', { name: 'Navigasi utama' })
      .getByRole('link', { name: 'User', exact: true })
      .click();
    await page.waitForURL('**/user');
    const main = page.getByRole('main');
    await visible(main.getByRole('heading', { name: 'User' }));
    await visible(main.getByRole('row').filter({ hasText: 'admin' }).first());
    await screenshot(page, 'd1-remote-user-screen');

    // The remote's list call went out with the shell's bearer token (the one signing in stored).
    expect(userListCalls.length).toBeGreaterThan(0);
    for (const request of userListCalls) {
      expect(await request.headerValue('authorization')).toBe(`Bearer ${token}`);
    }

    // Module Federation's share scope: __FEDERATION__.__SHARE__[<instance>][<scope>][<package>][<version>].
    const report = await page.evaluate(
      (packages) => {
        interface Shared {
          from?: string;
          loaded?: boolean;
          useIn?: string[];
          lib?: () => unknown;
        }
        type Scopes = Record<string, Record<string, Record<string, Shared>>>;
        const federation = (
          globalThis as {
            __FEDERATION__?: { __SHARE__?: Record<string, Scopes>; __INSTANCES__?: { name: string }[] };
          }
        ).__FEDERATION__;
        const share = Object.values(federation?.__SHARE__ ?? {});
        const byPackage: Record<string, SharedReport> = {};
        for (const pkg of packages) {
          const loaded = new Map<Shared, string>();
          let records = 0;
          for (const scope of share.flatMap((scopes) => Object.values(scopes))) {
            const versions = scope[pkg];
            if (!versions) continue;
            records += 1;
            for (const [version, shared] of Object.entries(versions)) {
              if (shared.loaded && shared.lib) loaded.set(shared, version);
            }
          }
          const modules = new Set([...loaded.keys()].map((shared) => shared.lib?.()));
          const stores = new Set(
            [...modules].map((m) => (m as { authStore?: unknown } | undefined)?.authStore),
          );
          const toastStores = [...modules]
            .map((m) => (m as { toastStore?: unknown } | undefined)?.toastStore)
            .filter((store) => store !== undefined);
          byPackage[pkg] = {
            records,
            loaded: [...loaded].map(([shared, version]) => ({
              version,
              from: shared.from ?? '?',
              useIn: shared.useIn ?? [],
            })),
            instances: modules.size,
            stores: stores.size,
            toastStores,
          };
        }
        // Object identity does not survive the trip out of the page: count distinct toast stores here.
        const allToastStores = new Set(Object.values(byPackage).flatMap((p) => p.toastStores));
        for (const p of Object.values(byPackage)) p.toastStores = [];
        return {
          federationInstances: (federation?.__INSTANCES__ ?? []).map((i) => i.name),
          byPackage,
          toastStoreCount: allToastStores.size,
        };
      },
      [...SHARED_ONCE, CORE],
    );

    expect(report.federationInstances).toEqual(expect.arrayContaining(['shell', 'mf_master_data']));
    for (const pkg of SHARED_ONCE) {
      const shared = report.byPackage[pkg];
      if (!shared) throw new Error(`${pkg} is not in the report`);
      // Recorded in the host's and the remote's scopes alike, but one loaded entry, one module object.
      expect(shared.records).toBeGreaterThanOrEqual(2);
      expect(shared.loaded).toHaveLength(1);
      expect(shared.instances).toBe(1);
      // Provided by the shell and used by the remote too (it did not fall back to a copy of its own).
      expect(shared.loaded[0]?.from).toBe('shell');
      expect(shared.loaded[0]?.useIn).toEqual(expect.arrayContaining(['shell', 'mf_master_data']));
    }
    expect(report.byPackage['@sertifikasi/shared-auth']?.stores).toBe(1);
    const core = report.byPackage[CORE];
    expect(core?.loaded).toHaveLength(1);
    expect(core?.instances).toBe(1);
    expect(core?.loaded[0]?.from).toBe('shell');
    // shared-ui re-exports its core entry: the remote's screens and the shell's toast host use one toast.
    expect(report.toastStoreCount).toBe(1);

    expect(errors).toEqual([]);
    await context.close();
  });
});
