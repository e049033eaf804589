import type { Check, Criterion, OracleHeader } from "../model/contract.js";
import { type At, entryFindings, GATED } from "./section-diff.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

type Oracle = Extract<Check, { type: "oracle" }>;

/**
 * Findings for a markdown contract changed in place (same file, or renamed
 * within the globs): base and head after the same parse. EVIDENCE lines are
 * never compared: the gate re-runs every oracle anyway.
 */
export function oracleFindings(base: ContractVersion, head: ContractVersion): Finding[] {
  const out: Finding[] = [];
  const bh = base.contract.header as OracleHeader;
  const hh = head.contract.header as OracleHeader;
  const at = (line: number, subject: string) => ({
    contract: head.path,
    kind: "oracle-contract" as const,
    path: head.path,
    line: Math.max(1, line),
    subject,
  });

  if (bh.request !== undefined && bh.request.text !== hh.request?.text) {
    out.push(
      finding({
        code: "request-changed",
        ...at(hh.request?.startLine ?? 1, "REQUEST"),
        message: hh.request
          ? "the REQUEST section changed; it is immutable (a new request is a new contract with `supersedes:`)"
          : "the REQUEST section was removed; it is immutable",
        before: bh.request.text,
        ...(hh.request ? { after: hh.request.text } : {}),
      }),
    );
  }

  if ((bh.status ?? "") !== (hh.status ?? "")) {
    out.push(
      finding({
        code: "status-changed",
        ...at(headerLine(head.text, "status"), "status"),
        message:
          hh.status?.toLowerCase() === "aborted"
            ? "status changed to aborted: an aborted contract runs nothing"
            : "the contract's status changed",
        before: bh.status ?? "(none)",
        after: hh.status ?? "(none)",
      }),
    );
  }

  out.push(...criteriaFindings(base.contract.criteria, head.contract.criteria, at));
  out.push(
    ...entryFindings(bh.clarifications, hh.clarifications, "CLARIFICATIONS", at, {
      changed: "clarification-changed",
      placeholder: true,
    }),
  );
  out.push(
    ...entryFindings(bh.fileScope, hh.fileScope, "FILE SCOPE", at, {
      changed: "file-scope-edited",
      placeholder: false,
    }),
  );
  return out;
}

/** Criteria of one markdown file, base vs head (the gate ledger's rules reuse it). */
export function criteriaFindings(base: Criterion[], head: Criterion[], at: At): Finding[] {
  const out: Finding[] = [];
  const headById = new Map(head.map((c) => [c.id, c]));
  // Pair each base criterion with its head one: same id and title first, then
  // the same title under another id (renumbered), then the same id (reworded).
  const pairs = new Map<Criterion, Criterion>();
  const used = new Set<string>();
  for (const b of base) {
    const h = headById.get(b.id);
    if (h && sameTitle(h.title, b.title)) {
      pairs.set(b, h);
      used.add(h.id);
    }
  }
  const renumbered = new Map<Criterion, Criterion>();
  for (const b of base) {
    if (pairs.has(b)) continue;
    const moved = head.find((c) => !used.has(c.id) && c.id !== b.id && sameTitle(c.title, b.title));
    if (moved) {
      renumbered.set(b, moved);
      used.add(moved.id);
    }
  }
  for (const b of base) {
    const h = headById.get(b.id);
    if (!pairs.has(b) && !renumbered.has(b) && h && !used.has(h.id)) {
      pairs.set(b, h);
      used.add(h.id);
    }
  }

  for (const [i, b] of base.entries()) {
    const moved = renumbered.get(b);
    const h = pairs.get(b);
    if (h === undefined) {
      out.push(
        finding({
          code: moved ? "criterion-renumbered" : "criterion-removed",
          ...at(moved?.location.line ?? anchorLine(base, i, pairs), `criterion ${b.id}`),
          message: moved
            ? `criterion ${b.id} was renumbered to ${moved.id}; ids are stable`
            : `criterion ${b.id} (base line ${b.location.line}) was deleted; a criterion is never deleted, only ABANDONed`,
          before: `${b.id}. ${b.title}`,
          ...(moved ? { after: `${moved.id}. ${moved.title}` } : {}),
        }),
      );
      continue;
    }
    out.push(...oracleChanges(b, h, at));
    if (b.abandon && b.abandon.reason !== h.abandon?.reason) {
      out.push(
        finding({
          code: "abandon-changed",
          ...at(h.abandon?.location.line ?? h.location.line, `ABANDON ${b.id}`),
          message: h.abandon
            ? `the ABANDON of criterion ${b.id} was rewritten`
            : `the ABANDON of criterion ${b.id} was removed`,
          before: `ABANDON: ${b.id} ${b.abandon.reason}`,
          ...(h.abandon ? { after: `ABANDON: ${h.id} ${h.abandon.reason}` } : {}),
        }),
      );
    }
    if (b.title !== h.title) {
      out.push(
        finding({
          code: "criterion-reworded",
          ...at(h.location.line, `criterion ${b.id}`),
          message: `the title of criterion ${b.id} was reworded`,
          before: b.title,
          after: h.title,
        }),
      );
    }
  }
  for (const h of head) {
    if (used.has(h.id) || GATED.test(h.title)) continue;
    out.push(
      finding({
        code: "ungated-append",
        ...at(h.location.line, `criterion ${h.id}`),
        message: `criterion ${h.id} was added without a [gated <YYYY-MM-DD>] marker`,
        after: `${h.id}. ${h.title}`,
      }),
    );
  }
  return out;
}

/** CHECK, EXPECT and CWD of a criterion, compared one by one. */
function oracleChanges(b: Criterion, h: Criterion, at: At): Finding[] {
  const bo = oracleOf(b);
  const ho = oracleOf(h);
  if (bo === undefined && ho === undefined) return [];
  if (bo !== undefined && ho === undefined) {
    return [
      finding({
        code: "oracle-removed",
        ...at(h.location.line, `criterion ${b.id}`),
        message: `criterion ${b.id} lost its CHECK:/EXPECT: (runnable → manual)`,
        before: oracleText(bo),
        after: "(manual: no CHECK/EXPECT)",
      }),
    ];
  }
  const fields: [string, string | undefined, string | undefined][] = [
    ["CHECK", bo?.command, ho?.command],
    ["EXPECT", bo && markerText(bo), ho && markerText(ho)],
    ["CWD", bo?.cwd, ho?.cwd],
  ];
  return fields
    .filter(([, before, after]) => before !== after)
    .map(([name, before, after]) =>
      finding({
        code: "oracle-changed",
        ...at(ho?.location.line ?? h.location.line, `criterion ${b.id} ${name}`),
        message:
          bo === undefined
            ? `manual criterion ${b.id} gained an oracle (${name}:)`
            : `the ${name}: of criterion ${b.id} changed`,
        before: before ?? "(none)",
        after: after ?? "(none)",
      }),
    );
}

function oracleOf(c: Criterion): Oracle | undefined {
  return c.checks.find((x): x is Oracle => x.type === "oracle");
}

function markerText(o: Oracle): string {
  if (o.expect === undefined) return "(exit 0)";
  return o.expect.kind === "literal" ? o.expect.text : `/${o.expect.source}/${o.expect.flags}`;
}

function oracleText(o: Oracle): string {
  return [
    `CHECK: ${o.command}`,
    `EXPECT: ${markerText(o)}`,
    ...(o.cwd ? [`CWD: ${o.cwd}`] : []),
  ].join("\n");
}

function sameTitle(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(GATED, "").replace(/\s+/g, " ").trim();
  return norm(a) === norm(b);
}

/** Where a deleted criterion would be at head: after the nearest earlier one that survives. */
function anchorLine(base: Criterion[], index: number, pairs: Map<Criterion, Criterion>): number {
  for (let i = index - 1; i >= 0; i--) {
    const kept = pairs.get(base[i]!);
    if (kept) return kept.location.line;
  }
  return pairs.values().next().value?.location.line ?? 1;
}

/** The line of a header fact such as `status:` (1 when absent). */
function headerLine(text: string, key: string): number {
  const re = new RegExp(`(^|[|\\s])${key}[ \\t]*:`, "i");
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith("## ")) break;
    if (re.test(lines[i]!)) return i + 1;
  }
  return 1;
}
