import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { CheckOutcome } from './api';

/** The `?cert=` of the page's address (a QR code carries it). */
export function certFromAddress(): string {
  try {
    return new URLSearchParams(window.location.search).get('cert') ?? '';
  } catch {
    return '';
  }
}

/** Keeps `?cert=` in the address in step with the last check, so it can be shared or reloaded. */
function rememberInAddress(number: string) {
  try {
    const url = new URL(window.location.href);
    if (url.searchParams.get('cert') === number) return;
    url.searchParams.set('cert', number);
    window.history.replaceState(window.history.state, '', url);
  } catch {
    // an address that cannot be rewritten changes nothing
  }
}

/**
 * The number field and its check: pre-filled from `?cert=` and checked on load (docs/rules.md#screens);
 * the number is sent as typed. Only the latest check's answer is shown.
 */
export function useCheck<T>(run: (number: string) => Promise<CheckOutcome<T>>) {
  const [number, setNumber] = useState(certFromAddress);
  const [loading, setLoading] = useState(false);
  const [outcome, setOutcome] = useState<CheckOutcome<T> | null>(null);
  const latest = useRef(0);

  const checkNumber = useCallback(
    async (value: string) => {
      const ticket = ++latest.current;
      setLoading(true);
      const result = await run(value);
      if (ticket !== latest.current) return;
      setOutcome(result);
      setLoading(false);
      if (result.kind !== 'error') rememberInAddress(value);
    },
    [run],
  );

  useEffect(() => {
    const initial = certFromAddress();
    if (initial) void checkNumber(initial);
  }, [checkNumber]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void checkNumber(number);
  };
  return { number, setNumber, loading, outcome, onSubmit };
}
