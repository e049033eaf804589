import { utf8Bytes } from "../github/limits.js";
import type { GuardrailRule, ProofRun, ProvedTest, SpecProof } from "../proof/types.js";
import { codeBlock, codeSpan, escapeInline } from "./markdown-escape.js";
import type { Paint } from "./paint.js";
import { OUTPUT_LINES, outputLines, safe } from "./terminal.js";

/** Each proof verdict as every surface words it (docs/proof.md's grading table). */
export const PROOF_VERDICT_TEXT: Record<ProvedTest["verdict"], string> = {
  proven: "proven: fails before the change, passes after",
  "passes-at-base": "proves nothing: passes on the code before this change",
  "survives-mutants": "proves nothing: no mutant of the changed code makes these tests fail",
  "skipped-at-base": "not proven: skipped on the code before this change",
  "not-passing-at-head": "not proven: does not pass at head",
  "invariant-holds": "invariant: passes at head",
  "invariant-broken": "invariant broken: does not pass at head",
  "execution-error": "execution error: the run could not decide",
};

const GOOD = new Set<ProvedTest["verdict"]>(["proven", "invariant-holds"]);

/** The surviving mutants a row names: only where they are why the test proves nothing. */
function shownSurvivors(t: ProvedTest): readonly string[] {
  return t.verdict === "survives-mutants" ? (t.mutants?.survivors ?? []) : [];
}

/** How many mutants were tried, beside a verdict that lists survivors. */
function triedText(t: ProvedTest): string {
  return shownSurvivors(t).length > 0 && t.mutants
    ? ` (${t.mutants.tried} mutants tried, ${t.mutants.killed} killed)`
    : "";
}

/** A markdown table cell's tail listing the surviving mutants (`file:line operator: before → after`). */
function survivorsCell(t: ProvedTest): string {
  const s = shownSurvivors(t);
  if (s.length === 0) return "";
  return `${triedText(t)}; surviving: ${s.map((m) => codeSpan(m)).join(", ")}`;
}

const RULE_TEXT: Record<GuardrailRule["rule"], string> = {
  "protected-paths": "protected paths, checked against the changed files",
  "no-new-dependencies": "no new dependencies, checked against the manifests",
  manual: "a manual criterion",
};

function runText(r: ProofRun): string {
  const how = `${r.side}: ${r.command} (${r.preset}, chosen by ${r.chosenBy})`;
  const end = r.error
    ? `execution error: ${r.error.message}`
    : r.exitCode !== undefined
      ? `exit ${r.exitCode}`
      : "no exit code";
  return `${how}, ${end}, ${(r.durationMs / 1000).toFixed(1)} s`;
}

/**
 * The last lines an execution error's run printed, as display lines (escape
 * sequences dropped, control characters stripped, long lines cut): the
 * error's message says what the gate saw, the runner's own words say why
 * (a crash after the tests, a missing module). Untrusted text, like every
 * command's output. Only for runs that decided nothing: a run that answered
 * is shown by its tests' rows.
 */
function errorTail(r: ProofRun): string[] {
  if (r.error === undefined || r.outputTail === undefined) return [];
  return outputLines(r.outputTail).slice(-OUTPUT_LINES);
}

/** "the head run" — numbered where one side had several invocations (Node's runner: one per file). */
function runNames(runs: readonly ProofRun[]): string[] {
  return runs.map((r, i) => {
    const same = runs.filter((o) => o.side === r.side);
    if (same.length === 1) return `the ${r.side} run`;
    return `the ${r.side} run ${runs.slice(0, i + 1).filter((o) => o.side === r.side).length} of ${same.length}`;
  });
}

/**
 * The "Requirement proof" section of the markdown surfaces (check run,
 * comment, job summary): per spec, each mapped test's base and head result
 * and verdict, the tamper and guardrail findings at their file and line, and
 * how each guardrail was read; within `budget`, the rest counted. Empty when
 * no spec was in scope. Blocking findings stop blocking with an approving
 * review, as the "Contract changes" section says.
 */
export function proofMarkdown(specs: readonly SpecProof[] | undefined, budget: number): string {
  if (!specs || specs.length === 0) return "";
  const lines: string[] = ["### Requirement proof", ""];
  for (const p of specs) {
    lines.push(`#### ${codeSpan(p.contract)}`, "");
    if (!p.enabled) {
      lines.push(
        "⏸️ **The requirement proof is off** (`requirement-proof: off`): mapped requirements stay awaiting proof.",
        "",
      );
    } else if (p.unproved !== undefined) {
      lines.push(`⏳ ${escapeInline(p.unproved)}`, "");
    }
    for (const r of p.runs) lines.push(`- ${r.error ? "❌" : "▶️"} ${escapeInline(runText(r))}`);
    if (p.runs.length > 0) lines.push("");
    const names = runNames(p.runs);
    for (const [i, r] of p.runs.entries()) {
      const tail = errorTail(r);
      // One element: a budget cut never leaves a fence open.
      if (tail.length > 0)
        lines.push(`Output of ${names[i]}, its last lines:`, "", codeBlock(tail.join("\n")), "");
    }
    if (p.tests.length > 0) {
      lines.push("| requirement | test | base | head | verdict |", "|---|---|---|---|---|");
      for (const t of p.tests) {
        const icon = GOOD.has(t.verdict) ? "✅" : "❌";
        lines.push(
          `| ${escapeInline(t.requirement)}${t.changed ? "" : " (invariant)"} | ${codeSpan(`${t.file} > ${t.name}`)} | ${t.base ?? "—"} | ${t.head} | ${icon} ${escapeInline(PROOF_VERDICT_TEXT[t.verdict])}${survivorsCell(t)} |`,
        );
      }
      lines.push("");
    }
    const tamper = p.tamper.map(
      (t) =>
        `- ${t.severity === "blocking" ? "❌" : "⚠️"} ${codeSpan(`${t.file}:${t.line}`)} ${codeSpan(t.code)} ${escapeInline(t.message)}`,
    );
    const guard = p.guardrails.map(
      (g) =>
        `- ❌ ${codeSpan(`${g.file}${g.line !== undefined ? `:${g.line}` : ""}`)} ${codeSpan(g.code)} ${escapeInline(g.message)}`,
    );
    if (p.base !== undefined) {
      lines.push(
        tamper.length === 0
          ? `Test diff against ${codeSpan(p.base.slice(0, 12))}: no tampering found.`
          : `Test diff against ${codeSpan(p.base.slice(0, 12))}:`,
      );
      if (tamper.length > 0) lines.push("", ...tamper);
      lines.push("");
    }
    if (p.guardrailRules.length > 0) {
      lines.push("Guardrails:", "");
      for (const r of p.guardrailRules)
        lines.push(
          `- ${codeSpan(`${p.contract}:${r.location.line}`)} ${escapeInline(r.text)} — ${RULE_TEXT[r.rule]}`,
        );
      lines.push("");
      if (guard.length > 0) lines.push(...guard, "");
      else if (p.base !== undefined) lines.push("No guardrail is broken by the diff.", "");
    }
  }
  if (specs.some((p) => p.tamper.some((t) => t.severity === "blocking") || p.guardrails.length > 0))
    lines.push(
      "Tamper and guardrail findings block like contract changes: an approving review on the head by someone with write access acknowledges them.",
      "",
    );
  return withinBudget(lines, budget);
}

/** The lines that fit in `budget`, then one line counting the rest. */
function withinBudget(lines: readonly string[], budget: number): string {
  let out = "";
  for (const [i, line] of lines.entries()) {
    const next = `${out}${line}\n`;
    if (utf8Bytes(next) > budget - 80) {
      return `${out}\n… ${lines.length - i} more lines of the requirement proof (the JSON report has all of it)\n`;
    }
    out = next;
  }
  return `${out.replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

/** The terminal section of `run`: the same content as the markdown, one line each. */
export function proofTerminal(specs: readonly SpecProof[] | undefined, paint: Paint): string {
  if (!specs || specs.length === 0) return "";
  const out: string[] = [paint.bold("Requirement proof")];
  for (const p of specs) {
    out.push(`  ${safe(p.contract)}`);
    if (!p.enabled)
      out.push(
        paint.yellow("    the requirement proof is off: mapped requirements stay awaiting proof"),
      );
    else if (p.unproved !== undefined) out.push(paint.yellow(`    ${safe(p.unproved)}`));
    const names = runNames(p.runs);
    for (const [i, r] of p.runs.entries()) {
      out.push(`    ${r.error ? paint.red("✘") : "▶"} ${safe(runText(r))}`);
      const tail = errorTail(r);
      if (tail.length > 0) out.push(paint.dim(`        output of ${names[i]}, its last lines:`));
      for (const l of tail) out.push(`        ${paint.dim("│")} ${l}`);
    }
    for (const t of p.tests) {
      const mark = GOOD.has(t.verdict) ? paint.green("✔") : paint.red("✘");
      out.push(
        `    ${mark} ${safe(t.requirement)}  ${safe(`${t.file} > ${t.name}`)}  base ${t.base ?? "—"} → head ${t.head}  ${PROOF_VERDICT_TEXT[t.verdict]}${triedText(t)}`,
      );
      for (const s of shownSurvivors(t))
        out.push(paint.dim(`        surviving mutant: ${safe(s)}`));
    }
    for (const t of p.tamper) {
      const tag = t.severity === "blocking" ? paint.red("✘ blocking") : paint.yellow("! warning");
      out.push(`    ${tag}  ${safe(`${t.file}:${t.line}`)}  ${t.code}  ${safe(t.message)}`);
    }
    for (const g of p.guardrails) {
      out.push(
        `    ${paint.red("✘ blocking")}  ${safe(`${g.file}${g.line !== undefined ? `:${g.line}` : ""}`)}  ${g.code}  ${safe(g.message)}`,
      );
    }
    for (const r of p.guardrailRules.filter((x) => x.rule !== "manual"))
      out.push(paint.dim(`    guardrail ${p.contract}:${r.location.line}: ${RULE_TEXT[r.rule]}`));
  }
  return `${out.join("\n")}\n`;
}
