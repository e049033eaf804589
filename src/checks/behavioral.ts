import { preview } from "../formats/json/wording.js";
import { normalizeRepoPath } from "../formats/paths.js";
import type { Check, Evidence } from "../model/contract.js";
import type { Citation } from "../model/evidence.js";
import { describeResolved } from "./files/confine.js";
import { resultsFrom } from "./files/results.js";
import type { CheckResult, ExecutionContext, Executor } from "./types.js";

type BehavioralCheck = Extract<Check, { type: "behavioral" }>;

/**
 * What the orchestrator hands a behavioral check: the citations for this task
 * and check index (see `citationsFor`), or why none can be trusted, e.g.
 * `{ invalid: "phase-2-evidence.json is invalid (3 problems)" }`.
 */
export type CitationInput = readonly Citation[] | { invalid: string };

/** How one `evidence_required` entry fared: cited, not validly cited, or not checkable. */
type EntryOutcome = { status: "cited" } | { status: "missing" | "error"; why: string };

/** `runBehavioral` bound to its citations, with the common executor signature. */
export function behavioralExecutor(citations: CitationInput): Executor<BehavioralCheck> {
  return (check, ctx) => runBehavioral(check, ctx, citations);
}

/**
 * `behavioral`: every `evidence_required` entry needs a citation that holds
 * up when re-read — same path, a regular file inside the repository, the line
 * exists, the snippet is on it, and the entry's `matcher` matches it. Nothing
 * the verifier wrote is taken on trust; an entry without such a citation is
 * `verification-evidence-missing`. A line that could not be read or a
 * matcher that ran over its time bound is an execution error instead.
 */
export async function runBehavioral(
  check: BehavioralCheck,
  ctx: ExecutionContext,
  citations: CitationInput,
): Promise<CheckResult> {
  const results = resultsFrom();
  if ("invalid" in citations) return results.evidenceMissing(citations.invalid);
  const entries = check.evidenceRequired;
  if (entries.length === 0) {
    return results.evidenceMissing("no evidence_required entries: nothing can be cited");
  }

  const problems: { status: "missing" | "error"; text: string }[] = [];
  for (const [i, entry] of entries.entries()) {
    const own = citations.filter((c) => c.evidence === i);
    const outcome = await judgeEntry(entry, own, ctx);
    if (outcome.status !== "cited") {
      problems.push({
        status: outcome.status,
        text: `evidence_required[${i}] ${entry.path}: ${outcome.why}`,
      });
    }
  }
  const stale = citations
    .filter((c) => c.evidence >= entries.length)
    .map(
      (c) =>
        `ignored: a citation for evidence_required[${c.evidence}], but the check has ${entries.length}`,
    );

  const cited = `${entries.length - problems.length} of ${entries.length} evidence entries cited`;
  const detail = [...problems.map((p) => p.text), ...stale].join("\n");
  const missing = problems.find((p) => p.status === "missing");
  if (missing) return results.evidenceMissing(`${cited}; ${missing.text}`, detail);
  const error = problems[0];
  if (error) return results.executionError(`${cited}; ${error.text}`, detail);
  return results.pass(cited, detail);
}

async function judgeEntry(
  entry: Evidence,
  citations: readonly Citation[],
  ctx: ExecutionContext,
): Promise<EntryOutcome> {
  const missing = (why: string): EntryOutcome => ({ status: "missing", why });
  const error = (why: string): EntryOutcome => ({ status: "error", why });
  const citation = citations[0];
  if (citation === undefined) return missing("no citation");
  if (citations.length > 1) return missing(`${citations.length} citations; cite each entry once`);

  const required = normalizeRepoPath(entry.path);
  if (normalizeRepoPath(citation.path) !== required) {
    return missing(`the citation is for ${citation.path}, not ${required}`);
  }
  const resolved = await ctx.tree.resolve(citation.path);
  if (resolved.kind === "error") return error(describeResolved(resolved));
  if (resolved.kind !== "file") return missing(describeResolved(resolved));

  const read = await ctx.files.readLine(resolved.abs, citation.line);
  if (!read.ok) return error(`could not read ${resolved.rel}: ${read.error}`);
  const { text, lineCount } = read.value;
  if (text === undefined) {
    const lines = lineCount === 1 ? "1 line" : `${lineCount} lines`;
    return missing(`line ${citation.line} out of range (file has ${lines})`);
  }
  const snippet = citation.snippet.trim();
  if (snippet === "" || !text.includes(snippet)) {
    return missing(
      `snippet differs from line ${citation.line}: cited ${preview(snippet)}, the line is ${preview(text.trim())}`,
    );
  }
  if (entry.matcher !== undefined) {
    const match = await ctx.files.matchText(text, entry.matcher, "");
    if (!match.ok)
      return error(`matcher /${entry.matcher}/ could not be evaluated: ${match.error}`);
    if (!match.value)
      return missing(`matcher /${entry.matcher}/ does not match line ${citation.line}`);
  }
  return { status: "cited" };
}
