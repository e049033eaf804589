import type { Contract, Criterion } from "../model/contract.js";
import { isInvalid } from "../model/contract.js";
import type { Paint } from "./paint.js";
import { plural } from "./problems-text.js";

/**
 * What a contract file itself says about a criterion, without running
 * anything. `recorded-met` is only what someone wrote; `run` never trusts it.
 */
export type RecordedState =
  | "recorded-met"
  | "recorded-not-met"
  | "pending"
  | "abandoned"
  | "manual"
  | "awaiting-proof";

/**
 * Plan contracts record outcomes in `phase-N-verification.json`, not in the
 * contract: criterion id → its recorded `verification_result`.
 */
export type RecordedResults = ReadonlyMap<string, string>;

export function recordedState(c: Criterion, recorded?: RecordedResults): RecordedState {
  if (c.abandon) return "abandoned";
  // A quality-review item's recorded status; a decision that needs a person.
  if (c.settled) {
    const { status, pending } = c.settled;
    if (pending) return "pending";
    if (status === "awaiting-proof") return "awaiting-proof";
    return status === "met" ? "recorded-met" : status === "unmet" ? "recorded-not-met" : "manual";
  }
  const result = recorded?.get(c.id);
  if (result !== undefined) return result === "pass" ? "recorded-met" : "recorded-not-met";
  const oracle = c.checks.find((k) => k.type === "oracle");
  if (oracle) {
    const text = oracle.evidence?.text.trim() ?? "";
    if (/^MET\b/.test(text)) return "recorded-met";
    if (/^NOT-MET\b/.test(text)) return "recorded-not-met";
    return "pending";
  }
  return c.checks.length === 0 ? "manual" : "pending";
}

const LABEL: Record<RecordedState, string> = {
  "recorded-met": "recorded MET",
  "recorded-not-met": "recorded NOT-MET",
  pending: "pending",
  abandoned: "abandoned",
  manual: "manual",
  "awaiting-proof": "awaiting proof",
};

function validity(c: Contract): string {
  const errors = c.problems.filter((p) => p.severity === "error").length;
  return errors === 0 ? "valid" : `invalid (${plural(errors, "error")})`;
}

/** The `status` terminal report: per contract its state, then each criterion. */
export function renderStatusText(
  contracts: readonly Contract[],
  paint: Paint,
  recorded: ReadonlyMap<string, RecordedResults> = new Map(),
): string {
  if (contracts.length === 0) return "no contracts found\n";
  const out: string[] = [];
  for (const c of contracts) {
    const facts = [c.kind, isInvalid(c) ? paint.red(validity(c)) : paint.green(validity(c))];
    if (c.drift) facts.push(`drift: ${c.drift}`);
    if (c.header.kind === "oracle-contract" && c.header.status)
      facts.push(`status: ${c.header.status}`);
    if (c.header.kind === "planner-qr" && c.header.iteration !== undefined)
      facts.push(`iteration ${c.header.iteration} of 5`);
    out.push(`${paint.bold(c.path)}  ${facts.join("  ")}`);
    const width = Math.max(0, ...c.criteria.map((k) => k.id.length));
    const line = (k: Criterion, indent: string) =>
      `${indent}${k.id.padEnd(width)}  ${LABEL[recordedState(k, recorded.get(c.path))].padEnd(16)}  ${k.title}` +
      (k.abandon ? paint.dim(`  (ABANDON: ${k.abandon.reason})`) : "");
    if (c.header.kind === "plan-contract") {
      for (const task of c.header.tasks) {
        out.push(`  ${task.id}  ${task.title}  ${paint.dim(`(wave ${task.wave})`)}`);
        for (const k of c.criteria.filter((x) => x.group === task.id)) out.push(line(k, "    "));
      }
    } else {
      for (const k of c.criteria) out.push(line(k, "  "));
    }
    if (c.criteria.length === 0) out.push(paint.dim("  (no criteria)"));
  }
  return `${out.join("\n")}\n`;
}

/** The `status --json` report (schemaVersion 1, documented in docs/cli.md). */
export function statusJson(
  contracts: readonly Contract[],
  recorded: ReadonlyMap<string, RecordedResults> = new Map(),
) {
  return {
    schemaVersion: 1 as const,
    contracts: contracts.map((c) => ({
      path: c.path,
      kind: c.kind,
      valid: !isInvalid(c),
      drift: c.drift ?? null,
      status: c.header.kind === "oracle-contract" ? (c.header.status ?? null) : null,
      problems: c.problems,
      tasks:
        c.header.kind === "plan-contract"
          ? c.header.tasks.map((t) => ({
              id: t.id,
              title: t.title,
              wave: t.wave,
              dependsOn: t.dependsOn,
            }))
          : undefined,
      criteria: c.criteria.map((k) => ({
        id: k.id,
        title: k.title,
        group: k.group ?? null,
        location: { path: k.location.path, line: k.location.line },
        recorded: recordedState(k, recorded.get(c.path)),
        checks: k.checks.map((x) => x.type),
        abandon: k.abandon?.reason ?? null,
      })),
    })),
  };
}

/**
 * Read what `run` recorded in `phase-N-verification.json` (leniently: a file
 * that is missing or not in the expected shape records nothing). Information
 * only; never used for a verdict.
 */
export function parseRecordedResults(text: string): RecordedResults {
  const out = new Map<string, string>();
  try {
    const data = JSON.parse(text) as {
      tasks?: { checks?: { criterion?: unknown; verification_result?: unknown }[] }[];
    };
    for (const task of data.tasks ?? []) {
      for (const check of task.checks ?? []) {
        if (typeof check.criterion === "string" && typeof check.verification_result === "string") {
          out.set(check.criterion, check.verification_result);
        }
      }
    }
  } catch {
    // Nothing recorded.
  }
  return out;
}
