// A small seeded PRNG (mulberry32) so the demo data is the same on every run.
export type Random = {
  next: () => number;
  int: (min: number, maxInclusive: number) => number;
  pick: <T>(weighted: readonly (readonly [T, number])[]) => T;
};

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (weighted) => {
      const total = weighted.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [value, w] of weighted) {
        r -= w;
        if (r < 0) return value;
      }
      const last = weighted[weighted.length - 1];
      if (!last) throw new Error("pick from an empty list");
      return last[0];
    },
  };
}
