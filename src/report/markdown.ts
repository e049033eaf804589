import { GITHUB_LIMITS, utf8Bytes } from "../github/limits.js";
import { scopeText } from "../scope/scope-reason.js";
import type { ContractOutcome, CriterionOutcome, CriterionStatus, RunSummary } from "../verdict.js";
import { CRITERION_STATUSES } from "../verdict.js";
import { codeBlock, codeSpan, escapeInline } from "./markdown-escape.js";
import { orderContracts, orderCriteria, verdictLabel } from "./order.js";
import { criteriaCount } from "./problems-text.js";

/** The default budget: GitHub's limit for a check run's `summary`/`text`. */
export const DEFAULT_MARKDOWN_BUDGET = GITHUB_LIMITS.checkRunOutput;

export const STATUS_EMOJI: Record<CriterionStatus, string> = {
  met: "✅",
  unmet: "❌",
  "evidence-missing": "🔍",
  error: "⚠️",
  abandoned: "🚫",
  manual: "📝",
  "not-run": "⛔",
  "awaiting-proof": "⏳",
};

export interface MarkdownOptions {
  /** Max UTF-8 bytes, the unit of every GitHub limit (default 65,535; see github/limits.ts). */
  budget?: number;
  /** Heading text, e.g. the check name. */
  title?: string;
  /** `summary`: heading, counts and tables; `details`: per-criterion details only. */
  part?: "all" | "summary" | "details";
  /** Contracts the change deletes: listed, never blocking. */
  removed?: readonly string[];
  /** Contract paths the PR changed that are not regular files at head (a submodule, a type change). */
  notFiles?: readonly string[];
  /** Trusted markdown appended at the end (links, rerun hint). Never contract text. */
  footer?: string;
  /** Where commands ran: a line under the counts, and a warning at the top when unsandboxed. */
  sandbox?: { line: string; warning?: string };
  /** Markdown shown first under the heading (the "Contract changes" section), already escaped and sized. */
  preamble?: string;
  /** The run's summary line (`runLineText`), in bold as the report's last line. */
  verdictLine?: string;
}

/**
 * Successive ways to shrink the report, mildest first. Every level keeps the
 * counts line and every blocking row of the summary tables.
 */
const LEVELS = [
  { details: "all", output: true, rows: "all", note: "" },
  { details: "blocking", output: true, rows: "all", note: "details of passing criteria" },
  {
    details: "blocking",
    output: false,
    rows: "all",
    note: "details of passing criteria and command output",
  },
  { details: "none", output: false, rows: "all", note: "all details" },
  {
    details: "none",
    output: false,
    rows: "blocking",
    note: "all details and the rows of non-blocking criteria",
  },
] as const;

type Level = (typeof LEVELS)[number];

/** The run report as GitHub-flavoured markdown, within the size budget. */
export function renderMarkdown(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  opts: MarkdownOptions = {},
): string {
  const budget = opts.budget ?? DEFAULT_MARKDOWN_BUDGET;
  const ordered = orderContracts(contracts);
  for (const level of LEVELS) {
    const text = render(summary, ordered, opts, level, budget);
    if (text !== undefined && utf8Bytes(text) <= budget) return text;
  }
  return hardCut(summary, ordered, opts, budget);
}

/** The unsandboxed warning: at the very top, above everything but the heading. */
function sandboxWarning(opts: MarkdownOptions): string[] {
  const warning = opts.sandbox?.warning;
  return warning ? ["", `> [!WARNING]\n> ${escapeInline(warning)}`] : [];
}

/** Where commands ran: one line under the counts. */
function sandboxLine(opts: MarkdownOptions): string[] {
  return opts.sandbox ? ["", escapeInline(opts.sandbox.line)] : [];
}

function heading(summary: RunSummary, opts: MarkdownOptions): string {
  const icon =
    summary.conclusion === "failure" ? "❌" : summary.conclusion === "success" ? "✅" : "⚪";
  const title = opts.title ? `${escapeInline(opts.title)}: ` : "";
  return `## ${icon} ${title}${summary.conclusion}`;
}

/** `**3 blocking** of 24 criteria in 2 contracts — ✅ 18 met · ❌ 2 unmet …` */
export function countsLine(summary: RunSummary): string {
  const c = summary.counts;
  const parts = CRITERION_STATUSES.filter((s) => c[s] > 0).map(
    (s) => `${STATUS_EMOJI[s]} ${c[s]} ${s}`,
  );
  const lead =
    c.contracts === 0
      ? "No contracts in scope"
      : `**${c.blocking} blocking** of ${criteriaCount(c.criteria)} in ${c.contracts} contract${c.contracts === 1 ? "" : "s"}`;
  return parts.length ? `${lead} — ${parts.join(" · ")}` : lead;
}

/**
 * The report's lines, and a lower bound on the size of the text they end as:
 * the UTF-8 bytes of each line, newlines left out, up to its last
 * non-blank one, which neither collapsing blank lines nor the final
 * `trimEnd` removes. Once the bound passes the budget the level cannot fit,
 * so rendering stops there instead of building megabytes at 30,000 criteria
 * only to measure and drop them (the text returned when it does fit is unchanged).
 */
class BoundedLines {
  readonly lines: string[] = [];
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** Add one line (it may hold newlines); false once the report cannot fit any more. */
  push(line: string): boolean {
    this.lines.push(line);
    const kept = line.trimEnd();
    if (kept !== "") {
      const newlines = countNewlines(kept);
      this.bytes += utf8Bytes(kept) - newlines;
    }
    return this.bytes <= this.budget;
  }

  /** Add lines in order; false once the report cannot fit (the rest are not added). */
  pushAll(lines: readonly string[]): boolean {
    for (const l of lines) if (!this.push(l)) return false;
    return true;
  }
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** The report at one level; undefined when it cannot fit the budget (`BoundedLines`). */
function render(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  opts: MarkdownOptions,
  level: Level,
  budget: number,
): string | undefined {
  const part = opts.part ?? "all";
  const out = new BoundedLines(budget);
  const fits = (lines: readonly string[]) => out.pushAll(lines);
  if (part !== "details") {
    if (!fits([heading(summary, opts), ...sandboxWarning(opts), ""])) return undefined;
    if (opts.preamble && !fits([opts.preamble, ""])) return undefined;
    if (!fits([countsLine(summary), ...sandboxLine(opts)])) return undefined;
    if (level.note) {
      const note = `> [!NOTE]\n> Report shortened to fit ${budget.toLocaleString("en-US")} characters: ${level.note} omitted. The JSON report has everything.`;
      if (!fits(["", note])) return undefined;
    }
    for (const c of contracts) if (!fits(["", ...contractTable(c, level.rows)])) return undefined;
    if (opts.removed?.length) {
      if (!fits(["", "### Removed contracts", ""])) return undefined;
      for (const r of opts.removed)
        if (!out.push(`- ${codeSpan(r)} (deleted: nothing of it runs; see Contract changes)`))
          return undefined;
    }
    if (opts.notFiles?.length) {
      if (!fits(["", "### Contracts that are no longer regular files", ""])) return undefined;
      for (const r of opts.notFiles)
        if (
          !out.push(
            `- ${codeSpan(r)} (not a regular file at head, a submodule say: nothing of it runs; see Contract changes)`,
          )
        )
          return undefined;
    }
  }
  if (part !== "summary") {
    // The heading goes above the first contract with details, so no contract's details are built
    // before the report is known to fit so far.
    let any = false;
    for (const c of contracts) {
      const details = contractDetails(c, level);
      if (details.length === 0) continue;
      if (!any) {
        any = true;
        if (!fits([...(out.lines.length ? [""] : []), "### Details", ""])) return undefined;
      }
      if (!fits(details)) return undefined;
    }
    if (!any && part === "details") out.push("No details: nothing ran.");
  }
  if (!fits(lastLine(opts))) return undefined;
  if (opts.footer && !fits(["", opts.footer])) return undefined;
  return `${out.lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

/** The summary line, bold, last in the report: only the footer's links follow it. */
function lastLine(opts: MarkdownOptions): string[] {
  return opts.verdictLine ? ["", `**${escapeInline(opts.verdictLine)}**`] : [];
}

function contractTable(c: ContractOutcome, rows: Level["rows"]): string[] {
  const out = [`### ${codeSpan(c.path)} — ${verdictLabel(c)}`];
  if (c.inScope) out.push("", `In scope: ${scopeText(c.path, c.inScope, codeSpan)}.`);
  const errors = c.problems.filter((p) => p.severity === "error");
  if (c.problems.length) {
    out.push("");
    for (const p of c.problems) {
      out.push(
        `- ${p.severity === "error" ? "❌" : "⚠️"} ${codeSpan(`${p.path}:${p.line}:${p.column}`)} ${codeSpan(p.code)} ${escapeInline(p.message)}` +
          (p.hint ? ` — ${escapeInline(p.hint)}` : ""),
      );
    }
    if (errors.length && c.criteria.length === 0) return out;
  }
  // Research and planner context files hold no criteria: they are validated, nothing runs.
  if (c.criteria.length === 0) return [...out, "", "*no criteria: validated, nothing to run*"];
  const ordered = orderCriteria(c.criteria);
  const shown = rows === "all" ? ordered : ordered.filter((k) => k.blocking);
  out.push("", "| | criterion | | reason |", "|---|---|---|---|");
  for (const k of shown) out.push(row(k));
  const hidden = ordered.length - shown.length;
  if (hidden > 0)
    out.push(`| | *${hidden} non-blocking row${hidden === 1 ? "" : "s"} omitted* | | |`);
  return out;
}

function row(k: CriterionOutcome): string {
  const flag = k.blocking ? "**blocking**" : "";
  return `| ${STATUS_EMOJI[k.status]} ${k.status} | ${codeSpan(k.id)} ${escapeInline(k.title)} | ${flag} | ${escapeInline(k.reason)} |`;
}

function contractDetails(c: ContractOutcome, level: Level): string[] {
  if (level.details === "none") return [];
  const out: string[] = [];
  for (const k of orderCriteria(c.criteria)) {
    if (level.details === "blocking" && !k.blocking) continue;
    if (k.checks.length === 0 && !k.blocking) continue;
    out.push(
      `#### ${STATUS_EMOJI[k.status]} ${codeSpan(k.id)} ${escapeInline(k.title)}`,
      "",
      `${codeSpan(`${k.location.path}:${k.location.line}`)} — **${k.status}**: ${escapeInline(k.reason)}`,
    );
    for (const check of k.checks) {
      out.push(
        "",
        `- ${codeSpan(check.type)} ${check.result}${check.failureReason ? ` (${check.failureReason})` : ""}: ${escapeInline(check.reason)}`,
      );
      if (level.output && check.detail) out.push("", codeBlock(check.detail));
    }
    out.push("");
  }
  return out;
}

/** Last resort: counts, then blocking rows one by one while they fit. */
function hardCut(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  opts: MarkdownOptions,
  budget: number,
): string {
  const head = [
    heading(summary, opts),
    ...sandboxWarning(opts),
    "",
    ...(opts.preamble ? [opts.preamble, ""] : []),
    countsLine(summary),
    ...sandboxLine(opts),
    "",
  ];
  // Rows are built only while they fit (a failing run at 30,000 criteria has that many), and the
  // text is measured by adding each part's size: the same sizes as measuring the joined text.
  const total = contracts.reduce((n, c) => n + c.criteria.filter((k) => k.blocking).length, 0);
  const rows = (function* () {
    for (const c of contracts)
      for (const k of orderCriteria(c.criteria))
        if (k.blocking)
          yield `- ${STATUS_EMOJI[k.status]} ${codeSpan(c.path)} ${codeSpan(k.id)} ${escapeInline(k.reason).slice(0, 300)}`;
  })();
  const note = (cut: number) =>
    `\n> [!WARNING]\n> Report cut to fit ${budget.toLocaleString("en-US")} characters: ${cut} blocking row${cut === 1 ? "" : "s"} and all other rows and details omitted. The JSON report has everything.\n`;
  let text = head.join("\n");
  let size = utf8Bytes(text);
  let kept = 0;
  const reserved = utf8Bytes(lastLine(opts).join("\n")) + 1;
  for (const r of rows) {
    const row = utf8Bytes(r);
    if (size + 1 + row + utf8Bytes(note(total - kept - 1)) + reserved > budget) break;
    text = `${text}\n${r}`;
    size += 1 + row;
    kept++;
  }
  const last = lastLine(opts).join("\n");
  const body = `${text}\n${note(total - kept)}${last ? `${last}\n` : ""}`;
  const footer =
    opts.footer && utf8Bytes(`${body}\n${opts.footer}\n`) <= budget ? `\n${opts.footer}\n` : "";
  return `${body}${footer}`;
}
