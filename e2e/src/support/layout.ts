/** How a page sits on the screen, as the person holding the phone or the mouse sees it. */
import type { Page } from 'playwright-core';

/**
 * The page itself never scrolls sideways; a wide table may, inside its own box. The page's width is
 * measured against the layout viewport (the root element's `clientWidth`, the device's width on a
 * phone), not against `window.innerWidth`: on a phone Chrome zooms a page wider than the screen out
 * to fit, and `innerWidth` then grows with the page, so a check against it could never fail there.
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { pageWidth, screenWidth } = await page.evaluate(() => ({
    pageWidth: document.scrollingElement!.scrollWidth,
    screenWidth: document.documentElement.clientWidth,
  }));
  expect(pageWidth).toBeLessThanOrEqual(screenWidth);
}
