/**
 * A seeded pseudo-random source (mulberry32): the demo and the benchmarks make the same data from the
 * same seed, so tests can assert on it and numbers from different runs compare.
 */
export function randomSource(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** A whole number from 0 to n - 1. */
  const int = (n: number): number => Math.floor(next() * n);
  /** A whole number from min to max, both included. */
  const between = (min: number, max: number): number => min + int(max - min + 1);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number): boolean => next() < p;
  /** One of `choices` by weight: [[value, weight], ...]. */
  const weighted = <T>(choices: readonly (readonly [T, number])[]): T => {
    const total = choices.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [value, w] of choices) {
      r -= w;
      if (r < 0) return value;
    }
    return choices[choices.length - 1]![0];
  };
  /**
   * A version-4-shaped UUID drawn from this source: the same seed gives the same ids, so a demo run
   * is reproducible to the row.
   */
  const hex8 = (): string =>
    Math.floor(next() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  const uuid = (): string => {
    const a = hex8();
    const b = hex8();
    const c = hex8();
    const d = hex8();
    const variant = ((parseInt(c[0]!, 16) & 3) | 8).toString(16);
    return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  };
  return { next, int, between, pick, chance, weighted, uuid };
}
export type Random = ReturnType<typeof randomSource>;
