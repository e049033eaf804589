import { scopeText } from "../scope-reason.js";
import type { ContractOutcome, CriterionOutcome, CriterionStatus, RunSummary } from "../verdict.js";
import { CRITERION_STATUSES } from "../verdict.js";
import { codeBlock, codeSpan, escapeInline, markdownSize } from "./markdown-escape.js";
import { orderContracts, orderCriteria, verdictLabel } from "./order.js";
import { criteriaCount } from "./problems-text.js";

/** GitHub's limit for a check run's `summary`/`text` and a comment body. */
export const DEFAULT_MARKDOWN_BUDGET = 65_535;

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
  /** Max characters and UTF-8 bytes (default 65,535). */
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
    if (markdownSize(text) <= budget) return text;
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

function render(
  summary: RunSummary,
  contracts: readonly ContractOutcome[],
  opts: MarkdownOptions,
  level: Level,
  budget: number,
): string {
  const part = opts.part ?? "all";
  const out: string[] = [];
  if (part !== "details") {
    out.push(heading(summary, opts), ...sandboxWarning(opts), "");
    if (opts.preamble) out.push(opts.preamble, "");
    out.push(countsLine(summary), ...sandboxLine(opts));
    if (level.note) {
      out.push(
        "",
        `> [!NOTE]\n> Report shortened to fit ${budget.toLocaleString("en-US")} characters: ${level.note} omitted. The JSON report has everything.`,
      );
    }
    for (const c of contracts) out.push("", ...contractTable(c, level.rows));
    if (opts.removed?.length) {
      out.push("", "### Removed contracts", "");
      for (const r of opts.removed)
        out.push(`- ${codeSpan(r)} (deleted: nothing of it runs; see Contract changes)`);
    }
    if (opts.notFiles?.length) {
      out.push("", "### Contracts that are no longer regular files", "");
      for (const r of opts.notFiles)
        out.push(
          `- ${codeSpan(r)} (not a regular file at head, a submodule say: nothing of it runs; see Contract changes)`,
        );
    }
  }
  if (part !== "summary") {
    const details = contracts.flatMap((c) => contractDetails(c, level));
    if (details.length) {
      out.push(...(out.length ? [""] : []), "### Details", "");
      // One push per line: spread arguments overflow the stack at 30,000 criteria.
      for (const d of details) out.push(d);
    } else if (part === "details") out.push("No details: nothing ran.");
  }
  out.push(...lastLine(opts));
  if (opts.footer) out.push("", opts.footer);
  return `${out
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
  const rows = contracts.flatMap((c) =>
    orderCriteria(c.criteria)
      .filter((k) => k.blocking)
      .map(
        (k) =>
          `- ${STATUS_EMOJI[k.status]} ${codeSpan(c.path)} ${codeSpan(k.id)} ${escapeInline(k.reason).slice(0, 300)}`,
      ),
  );
  const note = (cut: number) =>
    `\n> [!WARNING]\n> Report cut to fit ${budget.toLocaleString("en-US")} characters: ${cut} blocking row${cut === 1 ? "" : "s"} and all other rows and details omitted. The JSON report has everything.\n`;
  let text = head.join("\n");
  let kept = 0;
  const reserved = markdownSize(lastLine(opts).join("\n")) + 1;
  for (const r of rows) {
    const next = `${text}\n${r}`;
    if (markdownSize(next + note(rows.length - kept - 1)) + reserved > budget) break;
    text = next;
    kept++;
  }
  const last = lastLine(opts).join("\n");
  const body = `${text}\n${note(rows.length - kept)}${last ? `${last}\n` : ""}`;
  const footer =
    opts.footer && markdownSize(`${body}\n${opts.footer}\n`) <= budget ? `\n${opts.footer}\n` : "";
  return `${body}${footer}`;
}
