import type { Check, Contract, Criterion } from "../model/contract.js";
import { canonical } from "./check-align.js";
import { type Finding, finding } from "./types.js";

/**
 * A change judged by its effect (docs/integrity.md, first paragraph): every
 * criterion that can block at base — one with a check to run, an ABANDON
 * (which blocks until a person acts), or a recorded outcome that blocks (a
 * QR item that is not PASS, a decision a person must make) — must still
 * block at head with the same checks, whatever form the change took.
 * Additions never count; neither does a re-worded title. Pure.
 */

/** What a base criterion needs at head to be kept: each of its checks, its ABANDON, its recorded outcome. */
interface Needs {
  checks: string[];
  abandon?: string;
  settled?: { status: string; title: string; id: string };
}

/** How much longer a check may be allowed to run before the change counts as a weakening. */
const TIMEOUT_FACTOR = 10;

/** A check as it gates: its fields without place and information-only evidence; timeouts apart. */
export function checkKey(check: Check): string {
  const { location: _l, ...rest } = check;
  if (rest.type === "oracle") {
    const { evidence: _e, ...oracle } = rest;
    return canonical(oracle);
  }
  if (rest.type === "command-exit") {
    const { timeoutMs: _t, ...command } = rest;
    return canonical(command);
  }
  return canonical(rest);
}

function canBlock(c: Criterion): boolean {
  if (c.checks.length > 0 || c.abandon !== undefined) return true;
  // A pending outcome (a TODO item, a review in progress) is not yet a verdict: its resolution is the tool's.
  return c.settled?.blocking === true && c.settled.status !== "met" && c.settled.pending !== true;
}

function needsOf(c: Criterion): Needs {
  return {
    checks: c.checks.map(checkKey),
    ...(c.abandon !== undefined ? { abandon: c.id } : {}),
    ...(c.settled !== undefined && c.checks.length === 0 && c.abandon === undefined
      ? { settled: { status: c.settled.status, title: c.title, id: c.id } }
      : {}),
  };
}

/**
 * The base criteria that `heads` no longer keep: missing, weaker or unchecked.
 * `heads` are the head contracts that may carry them (the same file, and the
 * contract that supersedes it).
 */
export function lostCriteria(base: Contract, heads: readonly Contract[]): Criterion[] {
  const headCriteria = heads.flatMap((h) => h.criteria).filter(canBlock);
  const checks = new Map<string, number[]>();
  for (const c of headCriteria) {
    for (const ch of c.checks) {
      const key = checkKey(ch);
      const timeout = ch.type === "command-exit" ? ch.timeoutMs : 0;
      checks.set(key, [...(checks.get(key) ?? []), timeout]);
    }
  }
  const abandons = new Set(headCriteria.filter((c) => c.abandon).map((c) => c.id));
  const settled = headCriteria.filter((c) => c.checks.length === 0 && c.abandon === undefined);
  const matched = new Set<Criterion>();
  const lost: Criterion[] = [];
  const baseSettled: Criterion[] = [];
  for (const c of base.criteria.filter(canBlock)) {
    const needs = needsOf(c);
    if (needs.settled !== undefined) {
      baseSettled.push(c);
      continue;
    }
    const kept =
      c.checks.every((ch) => {
        const timeouts = checks.get(checkKey(ch));
        if (timeouts === undefined) return false;
        const limit = ch.type === "command-exit" ? ch.timeoutMs * TIMEOUT_FACTOR : 0;
        return timeouts.some((t) => t <= limit);
      }) &&
      (needs.abandon === undefined || abandons.has(needs.abandon) || c.checks.length > 0);
    if (!kept) lost.push(c);
  }
  // Recorded outcomes: matched by title first (a decision's id is its position), then by id (a re-worded one).
  const same = (b: Criterion, h: Criterion) =>
    !matched.has(h) && h.settled?.status === b.settled?.status && h.settled?.blocking === true;
  const pending: Criterion[] = [];
  for (const b of baseSettled) {
    const h = settled.find((x) => same(b, x) && x.title === b.title);
    if (h) matched.add(h);
    else pending.push(b);
  }
  for (const b of pending) {
    const h = settled.find((x) => same(b, x) && x.id === b.id);
    if (h) matched.add(h);
    else lost.push(b);
  }
  return lost.sort((a, b) => a.location.line - b.location.line);
}

/** One blocking `criterion-weakened` finding per lost base criterion, placed at the head file when there is one. */
export function weakenedFindings(
  base: Contract,
  heads: readonly Contract[],
  headPath: string | undefined,
): Finding[] {
  const where = heads.length === 0 ? "is gone at head" : "is missing, weaker or unchecked at head";
  return lostCriteria(base, heads).map((c) =>
    finding({
      code: "criterion-weakened",
      contract: headPath ?? base.path,
      kind: base.kind,
      path: headPath ?? base.path,
      line: headPath === undefined ? c.location.line : 1,
      subject: `criterion ${c.id}`,
      message: `criterion ${c.id} (${c.title}) could block at base and ${where}: ${describeLoss(c)}`,
      before: c.title,
    }),
  );
}

function describeLoss(c: Criterion): string {
  if (c.settled !== undefined && c.checks.length === 0) {
    return `its recorded outcome (${c.settled.status}) no longer blocks`;
  }
  const n = c.checks.length;
  return n === 0
    ? "its ABANDON no longer blocks"
    : `${n === 1 ? "its check" : `one of its ${n} checks`} is no longer run as it was`;
}
