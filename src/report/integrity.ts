import { fitAnnotationText, utf8Bytes } from "../github/limits.js";
import type { Annotation } from "../github/types.js";
import {
  type Finding,
  type IntegrityReport,
  orderFindings,
  sharesHead,
} from "../integrity/types.js";
import { codeBlock, codeSpan, escapeInline } from "./markdown-escape.js";
import type { Paint } from "./paint.js";
import { safe } from "./terminal.js";

const HOW_TO_APPROVE =
  "They stop blocking once someone with write access who is not the PR's author approves the PR's current head commit.";

/** One-line status of a finding: blocking, approved, or a warning. */
function label(f: Finding, report: Extract<IntegrityReport, { applies: true }>): string {
  if (!f.blocking) return "warning";
  return report.approval ? "approved" : "blocking";
}

/** How the blocking findings stop blocking: an approval, unless the head commit is shared (see the note). */
function howToUnblock(report: Extract<IntegrityReport, { applies: true }>): string {
  return sharesHead(report) ? "" : HOW_TO_APPROVE;
}

function beforeAfter(f: Finding): string {
  const side = (mark: string, text: string | undefined) =>
    text === undefined ? [] : text.split("\n").map((l) => `${mark} ${l}`);
  return [...side("-", f.before), ...side("+", f.after)].join("\n");
}

/**
 * The "Contract changes" section of the markdown reports, blocking first,
 * within `budget` (the rest is counted, never silently dropped). Empty when
 * the comparison applies and found nothing.
 */
export function integrityMarkdown(report: IntegrityReport | undefined, budget: number): string {
  if (report === undefined) return "";
  if (!report.applies) {
    return `### Contract changes\n\nNot compared: ${escapeInline(report.reason)}\n`;
  }
  if (report.findings.length === 0) return "";
  const findings = orderFindings(report.findings);
  const blocking = findings.filter((f) => f.blocking).length;
  const head = ["### Contract changes", ""];
  const base = `against the merge base ${codeSpan(report.base.slice(0, 12))}`;
  if (blocking === 0) {
    head.push(`${findings.length} non-blocking change${s(findings.length)} ${base}.`);
  } else if (report.approval) {
    head.push(
      `✅ ${blocking} blocking change${s(blocking)} ${base}, approved by ${escapeInline(`@${report.approval.login}`)} in [review](${report.approval.reviewUrl}).`,
    );
  } else {
    head.push(
      `❌ **${blocking} blocking change${s(blocking)}** ${base}.` +
        [howToUnblock(report), report.approvalNote ? escapeInline(report.approvalNote) : ""]
          .filter(Boolean)
          .map((t) => ` ${t}`)
          .join(""),
    );
  }
  head.push("");
  let text = head.join("\n");
  let shown = 0;
  for (const f of findings) {
    const icon = !f.blocking ? "⚠️" : report.approval ? "✅" : "❌";
    const diff = beforeAfter(f);
    const item = [
      `- ${icon} **${label(f, report)}** ${codeSpan(`${f.path}:${f.line}`)} ${codeSpan(f.code)} ${escapeInline(f.message)}`,
      ...(diff ? ["", indent(codeBlock(diff, "diff")), ""] : []),
    ].join("\n");
    const more = findings.length - shown - 1;
    const tail = more > 0 ? `\n- … ${more} more (the JSON report has every finding)` : "";
    if (utf8Bytes(`${text}\n${item}${tail}`) > budget) {
      text += `\n- … ${findings.length - shown} more change${s(findings.length - shown)} not shown (the JSON report has every finding)`;
      break;
    }
    text += `\n${item}`;
    shown++;
  }
  return `${text.replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

function indent(block: string): string {
  return block
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

function s(n: number): string {
  return n === 1 ? "" : "s";
}

/** The terminal section of `run --base` / `validate --base`. */
export function integrityTerminal(report: IntegrityReport, paint: Paint): string {
  if (!report.applies) return `Contract changes: not compared (${safe(report.reason)})\n`;
  const findings = orderFindings(report.findings);
  const out = [paint.bold(`Contract changes against the merge base ${report.base.slice(0, 12)}`)];
  if (findings.length === 0) out.push(paint.green("  none"));
  for (const f of findings) {
    const what = label(f, report);
    const tag = what === "blocking" ? paint.red("✘ blocking") : paint.yellow(`! ${what}`);
    out.push(`  ${tag}  ${safe(`${f.path}:${f.line}`)}  ${f.code}  ${safe(f.message)}`);
    for (const line of beforeAfter(f).split("\n").filter(Boolean)) {
      out.push(`      ${paint.dim(safe(line))}`);
    }
  }
  const blocking = findings.filter((f) => f.blocking).length;
  if (blocking > 0 && !report.approval) {
    const how = howToUnblock(report) || safe(report.approvalNote ?? "");
    out.push(paint.red(`${blocking} blocking contract change${s(blocking)} — ${how}`));
  }
  return `${out.join("\n")}\n`;
}

/**
 * One annotation per finding, at its head line (line 1 of the base path for
 * a file that is gone, named in the message). Approved blocking findings
 * become notices. A long diff is cut to GitHub's limit (`fitAnnotationText`).
 */
export function integrityAnnotations(
  report: IntegrityReport | undefined,
  prefix = "",
): Annotation[] {
  if (!report?.applies) return [];
  const repoPath = (p: string) => (prefix === "" ? p : `${prefix}/${p}`);
  return orderFindings(report.findings).map((f) => {
    const diff = beforeAfter(f);
    const approved = f.blocking && report.approval !== undefined;
    return fitAnnotationText<Annotation>({
      path: repoPath(f.path),
      start_line: Math.max(1, f.line),
      end_line: Math.max(1, f.line),
      annotation_level: !f.blocking ? "warning" : approved ? "notice" : "failure",
      title: `Contract change: ${f.code}${approved ? ` (approved by @${report.approval!.login})` : ""}`,
      message: `${f.message}${diff ? `\n${diff}` : ""}`,
    });
  });
}
