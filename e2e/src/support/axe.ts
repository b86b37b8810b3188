/**
 * axe-core (npm, a devDependency of this suite only) in the page under test: injected by the test
 * through the browser context (an init script, so the page's Content-Security-Policy is untouched
 * and no bundle ever holds it), run with the WCAG 2.0/2.1 level A and AA rules, after the page has
 * settled (no loading indicator, no running transition).
 */
import type { AxeResults, RunOptions } from 'axe-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { WAIT } from './browser';

/** The rules that count: WCAG 2.0 and 2.1, levels A and AA (docs/conventions.md#accessibility-wcag-21-aa). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

export interface AxeFinding {
  rule: string;
  help: string;
  impact: string | null;
  /** CSS selectors of (up to five of) the failing elements, with their HTML. */
  nodes: string[];
}

/** Makes axe-core available in every page of the context (before the page's own scripts run). */
export async function injectAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ path: require.resolve('axe-core/axe.min.js') });
}

/**
 * Waits until the page shows what it has: the network quiet, no busy region, no indeterminate
 * progress bar or skeleton, and every finite CSS transition or animation (dialogs fading in, menus
 * opening) finished, so colours are measured as the reader sees them.
 */
export async function settle(page: Page, timeout = WAIT): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout }).catch(() => undefined);
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[aria-busy="true"], .MuiSkeleton-root, [role="progressbar"]:not([aria-valuenow])',
      ),
    undefined,
    { timeout },
  );
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The WCAG A/AA violations axe finds in the page (or in `scope`). */
export async function axeViolations(page: Page, scope?: Locator): Promise<AxeFinding[]> {
  const element = scope ? await scope.elementHandle() : null;
  return page.evaluate(
    async ({ root, tags }) => {
      const axe = (
        window as unknown as {
          axe?: { run: (context: Element | Document, options: RunOptions) => Promise<AxeResults> };
        }
      ).axe;
      if (!axe) throw new Error('axe-core was not injected (injectAxe(context) before opening the page)');
      const result = await axe.run(root ?? document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return result.violations.map((v) => ({
        rule: v.id,
        help: v.help,
        impact: v.impact ?? null,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`),
      }));
    },
    { root: element, tags: [...WCAG_TAGS] },
  );
}

/** One line a failing test prints for each violation: where, in what state, which rule, which elements. */
export function describeFindings(where: string, findings: AxeFinding[]): string[] {
  return findings.map((f) => `${where}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.nodes.join('\n    ')}`);
}
