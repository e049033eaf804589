import { type Finding, finding } from "./types.js";
import type { Reached } from "./workflow-reach.js";

/**
 * The inputs whose value can weaken the gate, and the pinned gate version:
 * a change to any of them is named in the finding.
 */
export const WEAKENING_INPUTS = [
  "contracts",
  "sandbox",
  "scope",
  "untrusted-commands",
  "check-network",
  // A granted variable reaches the PR's code (and from there, under check-network: host, anywhere).
  "check-env",
  // The requirement proof: turned off, its tests decide nothing; narrowed, fewer tests are read.
  "requirement-proof",
  // Required, a spec without a map blocks; made optional, it no longer does.
  "requirement-map",
  "test-tamper",
  "test-command",
  "test-files",
  "test-timeout-seconds",
  "mutants-per-requirement",
  "mutation-timeout-seconds",
] as const;

/** `owner/repo/.github/workflows/x.yml@refs/...` (GITHUB_WORKFLOW_REF) → `.github/workflows/x.yml`. */
export function workflowPathOf(ref: string | undefined, repository: string): string | undefined {
  if (!ref) return undefined;
  const at = ref.lastIndexOf("@");
  const full = at < 0 ? ref : ref.slice(0, at);
  const prefix = `${repository}/`;
  const path = full.startsWith(prefix) ? full.slice(prefix.length) : undefined;
  return path && /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path) ? path : undefined;
}

/** Every value a key takes in the file (`key: value` lines, comments and quotes dropped). */
function valuesOf(text: string, key: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`^\\s*(?:-\\s+)?${key.replace(/-/g, "\\-")}\\s*:\\s*(.*)$`);
  for (const line of text.split("\n")) {
    const m = re.exec(line);
    if (m) out.push(clean(m[1] ?? ""));
  }
  return out;
}

function clean(v: string): string {
  return v
    .replace(/\s+#.*$/, "")
    .trim()
    .replace(/^(['"])(.*)\1$/, "$2");
}

/** The gate's `uses:` references: its pinned version. */
function gateUses(text: string): string[] {
  return valuesOf(text, "uses").filter((u) => /contract-gate|^\.\/?$/.test(u));
}

/**
 * The workflow that runs the gate, at the merge base and at the PR's head. On
 * `pull_request` GitHub runs the head's workflow file, so a PR can point
 * `contracts:` at nothing, turn the sandbox off or narrow the scope: any
 * change to the file is the blocking `gate-config-changed`, naming each
 * weakening input's values before → after. A workflow the PR adds (none at
 * base) is a change too. Pure.
 */
export function workflowFindings(
  path: string,
  base: string | undefined,
  head: string | undefined,
  reached?: Reached,
): Finding[] {
  if (base === head) return [];
  const b = base ?? "";
  const h = head ?? "";
  const named: string[] = [];
  for (const key of [...WEAKENING_INPUTS, "uses"] as const) {
    const before = key === "uses" ? gateUses(b) : valuesOf(b, key);
    const after = key === "uses" ? gateUses(h) : valuesOf(h, key);
    if (before.join("\n") !== after.join("\n")) {
      const show = (vs: string[]) =>
        vs.length === 0 ? "(unset)" : vs.map((v) => `\`${v}\``).join(", ");
      named.push(
        `${key === "uses" ? "the gate version" : `\`${key}\``}: ${show(before)} → ${show(after)}`,
      );
    }
  }
  const bl = b.split("\n");
  const hl = h.split("\n");
  let first = 0;
  while (first < bl.length && first < hl.length && bl[first] === hl[first]) first++;
  const what =
    base === undefined
      ? "was added by this pull request"
      : head === undefined
        ? "was deleted by this pull request"
        : "changed in this pull request";
  return [
    finding({
      code: "gate-config-changed",
      contract: path,
      kind: "pull-request",
      path,
      line: head === undefined ? 1 : Math.min(first + 1, hl.length),
      subject: "workflow",
      message: `${roleOf(path, reached)} ${what}, and GitHub runs the pull request's copy${named.length > 0 ? `: ${named.join("; ")}` : " (its triggers, permissions, steps or inputs)"}`,
      ...(named.length > 0 ? {} : { before: bl[first] ?? "", after: hl[first] ?? "" }),
    }),
  ];
}

/** How a finding names a reached file: the invoking workflow, or what it is and who calls it. */
function roleOf(path: string, reached: Reached | undefined): string {
  if (reached?.via === undefined) return `the workflow that runs the gate (${path})`;
  return `the ${reached.kind} ${path}, which the gate's run reaches through ${reached.via},`;
}

/**
 * Every file the invoking workflow reaches (`reachWorkflows`, at base and at
 * head: `reached` is their union) compared whole between the two sides:
 * each that differs is one `gate-config-changed`. A file the run does not
 * reach is not read at all, so a PR changing an unrelated workflow passes.
 * Pure.
 */
export function reachedWorkflowFindings(
  reached: readonly Reached[],
  base: (path: string) => string | null | undefined,
  head: (path: string) => string | null | undefined,
): Finding[] {
  return reached.flatMap((r) =>
    workflowFindings(r.path, base(r.path) ?? undefined, head(r.path) ?? undefined, r),
  );
}
