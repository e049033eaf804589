import type { Contract, Problem } from "../model/contract.js";
import type { Paint } from "./paint.js";

/** `path:line:col: error CODE message`, then an indented hint line: the compiler convention editors link. */
export function formatProblem(p: Problem, paint: Paint): string {
  const sev = p.severity === "error" ? paint.red("error") : paint.yellow("warning");
  const head = `${p.path}:${p.line}:${p.column}: ${sev} ${paint.bold(p.code)} ${p.message}`;
  return p.hint ? `${head}\n    hint: ${p.hint}` : head;
}

export interface ProblemCounts {
  contracts: number;
  valid: number;
  invalid: number;
  errors: number;
  warnings: number;
}

export function countProblems(contracts: readonly Contract[]): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  let invalid = 0;
  for (const c of contracts) {
    const e = c.problems.filter((p) => p.severity === "error").length;
    errors += e;
    warnings += c.problems.length - e;
    if (e > 0) invalid++;
  }
  return {
    contracts: contracts.length,
    valid: contracts.length - invalid,
    invalid,
    errors,
    warnings,
  };
}

/**
 * The whole `validate` terminal report: every problem, the contract changes
 * (`--base`), then one summary line that counts what fails the command.
 */
export function renderValidateText(
  contracts: readonly Contract[],
  paint: Paint,
  changes: { section: string; blocking: number } = { section: "", blocking: 0 },
): string {
  const lines: string[] = [];
  for (const c of contracts) for (const p of c.problems) lines.push(formatProblem(p, paint));
  if (changes.section) lines.push(changes.section.trimEnd());
  const n = countProblems(contracts);
  const blocking =
    changes.blocking > 0
      ? `; ${plural(changes.blocking, "blocking contract change")} needing approval`
      : "";
  lines.push(
    n.contracts === 0
      ? `no contracts found${blocking}`
      : `${plural(n.contracts, "contract")} checked: ${n.valid} valid, ${n.invalid} invalid ` +
          `(${plural(n.errors, "error")}, ${plural(n.warnings, "warning")})${blocking}`,
  );
  return `${lines.join("\n")}\n`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `1 criterion`, `3 criteria`: the one irregular plural every surface counts. */
export function criteriaCount(n: number): string {
  return `${n} ${n === 1 ? "criterion" : "criteria"}`;
}
