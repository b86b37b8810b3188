/**
 * A screen of a given width for MUI's `useMediaQuery` (jsdom has no `matchMedia`): answers
 * `(min-width:…)` and `(max-width:…)` queries for `width`. Returns a function that removes it again.
 */
export function emulateScreenWidth(width: number): () => void {
  const holds = (query: string) =>
    query.split(/\s+and\s+/).every((part) => {
      const m = /\((min|max)-width:\s*([\d.]+)px\)/.exec(part);
      if (!m) return true;
      const px = Number(m[2]);
      return m[1] === 'min' ? width >= px : width <= px;
    });
  const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: holds(query),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
  return () => {
    if (original) Object.defineProperty(window, 'matchMedia', original);
    else delete (window as { matchMedia?: unknown }).matchMedia;
  };
}

/**
 * Makes every element report `scrollWidth` and `clientWidth` as given (jsdom lays nothing out), so
 * that a box whose content is wider than itself can be shown. Returns a function that undoes it.
 */
export function emulateBoxWidths(scrollWidth: number, clientWidth: number): () => void {
  const scroll = jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scrollWidth);
  const client = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(clientWidth);
  return () => {
    scroll.mockRestore();
    client.mockRestore();
  };
}
