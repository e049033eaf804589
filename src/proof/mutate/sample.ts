import type { Mutant } from "./operators.js";

/** Every non-blank line of a file the merge base lacks (1-based): all of it is the change. */
export function allLines(head: string): Set<number> {
  const out = new Set<number>();
  head.split("\n").forEach((l, k) => {
    if (l.trim() !== "") out.add(k + 1);
  });
  return out;
}

/**
 * At most `n` mutants, chosen by a seeded sampler spread over the hunks
 * (runs of adjacent changed lines per file): the hunks take turns, and
 * within each the order is a seeded shuffle. With `loaded` (the files the
 * requirement's tests load, src/proof/mutate/imports.ts), the mutants of
 * those files are chosen first and the rest fill what is left. The same
 * pool, seed and files give the same choice on every run.
 */
export function sampleMutants(
  pool: readonly Mutant[],
  n: number,
  seed: string,
  loaded?: ReadonlySet<string>,
): Mutant[] {
  if (loaded === undefined) return spread(pool, n, seed);
  const first = spread(
    pool.filter((m) => loaded.has(m.file)),
    n,
    seed,
  );
  return [
    ...first,
    ...spread(
      pool.filter((m) => !loaded.has(m.file)),
      n - first.length,
      seed,
    ),
  ];
}

function spread(pool: readonly Mutant[], n: number, seed: string): Mutant[] {
  if (n <= 0) return [];
  if (pool.length <= n) return [...pool];
  const hunks = new Map<string, Mutant[]>();
  const sorted = [...pool].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.start - b.start || a.operator.localeCompare(b.operator),
  );
  let key = "";
  let last: Mutant | undefined;
  for (const m of sorted) {
    if (last === undefined || last.file !== m.file || m.line > last.line + 1)
      key = `${m.file}:${m.line}`;
    const h = hunks.get(key) ?? [];
    h.push(m);
    hunks.set(key, h);
    last = m;
  }
  const random = mulberry32(hash(seed));
  const queues = [...hunks.values()].map((h) => shuffle(h, random));
  const out: Mutant[] = [];
  while (out.length < n) {
    let took = false;
    for (const q of queues) {
      const m = q.shift();
      if (m === undefined) continue;
      out.push(m);
      took = true;
      if (out.length === n) break;
    }
    if (!took) break;
  }
  return out;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
