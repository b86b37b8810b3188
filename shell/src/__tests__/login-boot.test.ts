/**
 * login.html's one script (webpack/login-boot.js): the page's own scripts and the 'first' chunk's
 * prefetch are added after the drawn form is painted, or at its first use, once.
 */
import path from 'node:path';
import { STARTERS, SUBMITTED_MARK } from '../boot-form';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { BOOT_SOURCE } = require(path.resolve(__dirname, '..', '..', '..', 'webpack', 'login-boot.js')) as {
  BOOT_SOURCE: string;
};

const SCRIPTS = ['/main.0123456789abcdef0123.js'];
const PREFETCH = ['/first.0123456789abcdef0123.js'];

function runBoot() {
  const source = BOOT_SOURCE.replace('__SCRIPTS__', JSON.stringify(SCRIPTS)).replace(
    '__PREFETCH__',
    JSON.stringify(PREFETCH),
  );
  // The file as the browser runs it: a classic script in the page's global scope.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call -- that is the point
  new Function(source)();
}

const added = () => ({
  scripts: [...document.head.querySelectorAll('script')].map((s) => s.getAttribute('src')),
  prefetch: [...document.head.querySelectorAll('link[rel=prefetch]')].map((l) => l.getAttribute('href')),
});

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '<form><input id="username" /></form>';
});

describe("login.html's boot script", () => {
  it('starts on the same uses of the form as boot-form.ts waits for', () => {
    const listed = /var starters = (\[[^\]]*\])/.exec(BOOT_SOURCE)?.[1];
    expect(JSON.parse(listed!.replace(/'/g, '"'))).toEqual([...STARTERS]);
  });

  it('adds the scripts in order and the prefetch after the page has loaded and painted, not before', async () => {
    jest.useFakeTimers();
    try {
      // jsdom reports no paints and its document is complete already: the script waits for the
      // next frame and a task.
      runBoot();
      expect(added()).toEqual({ scripts: [], prefetch: [] });
      jest.runAllTimers();
      expect(added()).toEqual({ scripts: SCRIPTS, prefetch: PREFETCH });
      const [script] = document.head.querySelectorAll('script');
      expect(script!.async).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('where the browser reports its paints, waits for the first-contentful-paint', () => {
    const observers: ((
      list: { getEntriesByName: (n: string) => unknown[] },
      o: { disconnect: () => void },
    ) => void)[] = [];
    const disconnect = jest.fn();
    class FakeObserver {
      static supportedEntryTypes = ['paint'];
      constructor(cb: (typeof observers)[number]) {
        observers.push(cb);
      }
      observe = jest.fn();
      disconnect = disconnect;
    }
    const real = (window as { PerformanceObserver?: unknown }).PerformanceObserver;
    Object.assign(window, { PerformanceObserver: FakeObserver });
    jest.useFakeTimers();
    try {
      runBoot();
      jest.runAllTimers();
      expect(added()).toEqual({ scripts: [], prefetch: [] });
      const fired = (names: string[]) =>
        observers[0]!({ getEntriesByName: (n) => (names.includes(n) ? [{}] : []) }, { disconnect });
      fired(['first-paint']);
      jest.runAllTimers();
      expect(added()).toEqual({ scripts: [], prefetch: [] });
      fired(['first-paint', 'first-contentful-paint']);
      expect(disconnect).toHaveBeenCalled();
      jest.runAllTimers();
      expect(added()).toEqual({ scripts: SCRIPTS, prefetch: PREFETCH });
    } finally {
      jest.useRealTimers();
      Object.assign(window, { PerformanceObserver: real });
    }
  });

  it('adds them at once when the form is used first, and only once', () => {
    jest.useFakeTimers();
    try {
      runBoot();
      document.getElementById('username')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      expect(added()).toEqual({ scripts: SCRIPTS, prefetch: PREFETCH });
      jest.runAllTimers();
      document.getElementById('username')!.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
      expect(added()).toEqual({ scripts: SCRIPTS, prefetch: PREFETCH });
    } finally {
      jest.useRealTimers();
    }
  });

  it('marks the form submitted before the portal has run, with the mark boot-form.ts takes', () => {
    jest.useFakeTimers();
    try {
      runBoot();
      const form = document.querySelector('form')!;
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      expect(form.hasAttribute(SUBMITTED_MARK)).toBe(true);
      expect(added().scripts).toEqual(SCRIPTS);
    } finally {
      jest.useRealTimers();
    }
  });
});
