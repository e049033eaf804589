/**
 * Comparing JSON values by content: canonical text (sorted keys), and the
 * alignment of a task's checks at base and at head.
 */

export type Obj = Record<string, unknown>;

/** The value as an object (an empty one when it is not): raw JSON is read defensively. */
export function asObj(v: unknown): Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {};
}

/** JSON with sorted keys: equal values compare equal whatever their layout. */
export function canonical(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x: unknown) =>
      x !== null && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(
            Object.entries(x as Obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          )
        : x,
    ) ?? "undefined"
  );
}

/**
 * Base and head checks of one task, aligned: identical checks (canonical
 * JSON) are matched in order (longest common subsequence); the checks left
 * over pair with a leftover of the same type first, then by position. So
 * removing one check in the middle reads as one drop, not as every later
 * check changing. Identical pairs are left out.
 */
export function alignChecks(
  base: readonly unknown[],
  head: readonly unknown[],
): [number | undefined, number | undefined][] {
  const bc = base.map(canonical);
  const hc = head.map(canonical);
  const n = base.length;
  const m = head.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        bc[i] === hc[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const leftB: number[] = [];
  const leftH: number[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (bc[i] === hc[j]) {
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) leftB.push(i++);
    else leftH.push(j++);
  }
  while (i < n) leftB.push(i++);
  while (j < m) leftH.push(j++);

  const typeOf = (v: unknown) => asObj(v).type;
  const unused = new Set(leftB);
  const pairs = new Map<number, number>();
  const take = (j: number, fits: (i: number) => boolean) => {
    const found = leftB.find((i) => unused.has(i) && fits(i));
    if (found === undefined) return;
    pairs.set(j, found);
    unused.delete(found);
  };
  for (const j of leftH) take(j, (i) => typeOf(base[i]) === typeOf(head[j]));
  for (const j of leftH) if (!pairs.has(j)) take(j, () => true);
  const out: [number | undefined, number | undefined][] = leftH.map((j) => [pairs.get(j), j]);
  for (const i of unused) out.push([i, undefined]);
  return out.sort(([a, x], [b, y]) => (a ?? x ?? 0) - (b ?? y ?? 0));
}
