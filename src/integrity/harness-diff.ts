import type { Check, Contract, Criterion, SpecHeader } from "../model/contract.js";
import { entryLine, entryName, entryText } from "./harness-entry.js";
import {
  argvCheck,
  type HarnessPart,
  type ResolvedHarness,
  resolveHarness,
  shellCheck,
  type Tree,
} from "./harness-resolve.js";
import type { SimpleCommand } from "./harness-shell.js";
import { type Finding, finding } from "./types.js";

/** A command a base contract runs: a criterion's check, or a command the gate itself runs for it. */
export interface CommandCheck {
  contract: Contract;
  /** Absent for a command of the gate's own (the proof's test command). */
  criterion?: Criterion;
  /** How a finding names it, e.g. `criterion 2` or `the proof's test command`. */
  label: string;
  line: number;
  commands: SimpleCommand[];
}

/** Every command check of `contracts` (command-exit, oracles, Verification commands), with its simple commands. */
export function commandChecks(contracts: readonly Contract[]): CommandCheck[] {
  const out: CommandCheck[] = [];
  for (const contract of contracts) {
    for (const criterion of contract.criteria) {
      for (const check of criterion.checks) {
        const commands = commandsOf(check);
        if (commands === undefined) continue;
        out.push({
          contract,
          criterion,
          label: `criterion ${criterion.id}`,
          line: check.location.line,
          commands,
        });
      }
    }
  }
  return out;
}

/**
 * The requirement proof's test command, as the gate would choose it at base:
 * the `test-command` input, or detection over the base tree (docs/proof.md).
 * Injected by the surfaces (the chooser lives in proof/, downstream).
 */
export interface ProofCommand {
  /** The base files detection reads (read before `choose` is asked). */
  reads: readonly string[];
  /** The command line for `files` (placeholders filled), or undefined when none is chosen. */
  choose(read: (path: string) => string | undefined, files: readonly string[]): string | undefined;
}

/**
 * The proof's test command for each base spec that maps requirements to
 * tests: one more command check, labelled `the proof's test command`, so
 * the script entry or runner configuration it runs is compared like a
 * criterion's (a PR rewriting `scripts.test` or `vitest.config.ts` to pass
 * everything changes what proves the requirements). Pure.
 */
export function proofChecks(
  contracts: readonly Contract[],
  command: ProofCommand,
  read: (path: string) => string | undefined,
): CommandCheck[] {
  const out: CommandCheck[] = [];
  for (const contract of contracts) {
    if (contract.kind !== "spec" && contract.kind !== "speckit-spec") continue;
    const map = (contract.header as SpecHeader | undefined)?.model?.map;
    const tests = (map?.entries ?? []).flatMap((e) =>
      e.target.kind === "test" ? [{ file: e.target.file, line: e.location.line }] : [],
    );
    if (tests.length === 0) continue;
    const line = command.choose(read, [...new Set(tests.map((t) => t.file))].sort());
    if (line === undefined) continue;
    out.push({
      contract,
      label: "the proof's test command",
      line: tests[0]?.line ?? 1,
      commands: shellCheck(line, ""),
    });
  }
  return out;
}

function commandsOf(check: Check): SimpleCommand[] | undefined {
  if (check.type === "oracle") return shellCheck(check.command, check.cwd ?? "");
  if (check.type === "command-exit") return argvCheck(check.command, check.args, check.cwd ?? "");
  return undefined;
}

/** Each check's harness resolved against the same base tree. */
export function resolveAll(
  checks: readonly CommandCheck[],
  base: Tree,
  changed: readonly string[],
): ResolvedHarness[] {
  return checks.map((c) => resolveHarness(c.commands, base, changed));
}

/**
 * The findings of a PR that changes what a base check runs (docs/integrity.md,
 * "What a check runs"): for each part of a check's harness whose file the PR
 * changes, the entry's base and head text compared — a difference is the
 * blocking `check-harness-changed`, naming the criterion, the file and the
 * entry. What could not be resolved is one `check-harness-unresolved`
 * warning per check. `head` gives a changed file's head text (`null`: gone).
 * Pure.
 */
export function harnessFindings(
  checks: readonly CommandCheck[],
  resolved: readonly ResolvedHarness[],
  base: Tree,
  head: (path: string) => string | null | undefined,
  changed: ReadonlySet<string>,
): Finding[] {
  const out: Finding[] = [];
  checks.forEach((check, i) => {
    const r = resolved[i] as ResolvedHarness;
    for (const p of r.parts) {
      if (!changed.has(p.file)) continue;
      const changedPart = partChange(p, base, head);
      if (changedPart === undefined) continue;
      out.push(
        finding({
          code: "check-harness-changed",
          contract: check.contract.path,
          kind: check.contract.kind,
          path: p.file,
          line: changedPart.line,
          subject: `${check.label} harness`,
          message: `${check.label} of ${check.contract.path} runs ${entryName(p.entry)} of ${p.file} (${p.via}), and the pull request ${changedPart.what}: a change to what a check runs needs the same approval as a change to the check`,
          ...(changedPart.before !== undefined ? { before: changedPart.before } : {}),
          ...(changedPart.after !== undefined ? { after: changedPart.after } : {}),
        }),
      );
    }
    if (r.unresolved.length > 0) {
      out.push(
        finding({
          code: "check-harness-unresolved",
          contract: check.contract.path,
          kind: check.contract.kind,
          path: check.contract.path,
          line: check.line,
          subject: `${check.label} harness`,
          message: `what ${check.label} runs could not be resolved statically, so a change to it would go unseen: ${r.unresolved.join("; ")}`,
        }),
      );
    }
  });
  return out;
}

function partChange(
  p: HarnessPart,
  base: Tree,
  head: (path: string) => string | null | undefined,
): { line: number; what: string; before?: string; after?: string } | undefined {
  const b = base(p.file) ?? undefined;
  const h = head(p.file) ?? undefined;
  const before = entryText(p.entry, b);
  const after = entryText(p.entry, h);
  if (before === after) return undefined;
  const what =
    before === undefined
      ? `adds it`
      : after === undefined
        ? h === undefined
          ? "deletes the file"
          : "removes it"
        : "changes it";
  return {
    line: entryLine(p.entry, h),
    what,
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
  };
}
