import type { Check, Location, Marker } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { type Doc, locate } from "../markdown/lines.js";
import type { ProblemSink } from "../markdown/problem-sink.js";
import { parseMarker, unwrapBackticks } from "../markdown/values.js";
import { normalizeRepoPath, unsafePathReason } from "../paths.js";
import { regexError } from "../regex.js";
import type { AttributeLine, DraftCriterion } from "./criteria.js";
import { CONTRACT_DIALECT, type Dialect } from "./dialect.js";

/**
 * Turn a criterion's attributes into its oracle check, reporting every way the
 * oracle is incomplete or unusable. A criterion with neither CHECK: nor
 * EXPECT: is manual (no checks). A half-written oracle is an error, never a
 * manual criterion: demoting it silently would turn the gate into a rubber stamp.
 */
export function buildOracle(
  doc: Doc,
  draft: DraftCriterion,
  problems: ProblemSink,
  dialect: Dialect = CONTRACT_DIALECT,
): void {
  const { CHECK, EXPECT, EVIDENCE, CWD } = draft.attributes;
  const id = draft.criterion.id;
  const at = (a: AttributeLine) => locate(doc, a.index, a.column);

  const command = CHECK && commandOf(CHECK, id, at(CHECK), problems);
  const expect = EXPECT && markerOf(EXPECT, id, at(EXPECT), problems);
  const cwd = CWD && cwdOf(CWD, id, at(CWD), problems);

  if (CHECK && !EXPECT) {
    problems.push(
      problem("partial-oracle", at(CHECK), `criterion ${id} has CHECK: but no EXPECT:`, {
        hint: `add an indented EXPECT: <success-only marker> under criterion ${id}, or remove its CHECK: to make it manual`,
      }),
    );
  } else if (EXPECT && !CHECK) {
    problems.push(
      problem("partial-oracle", at(EXPECT), `criterion ${id} has EXPECT: but no CHECK:`, {
        hint: `add an indented CHECK: <command> under criterion ${id}, or remove its EXPECT: to make it manual`,
      }),
    );
  } else if (CWD && !CHECK) {
    // A working directory for no command: the CHECK:/EXPECT: pair was lost
    // (misspelled, lowercased), which must not quietly make the criterion manual.
    problems.push(
      problem("partial-oracle", at(CWD), `criterion ${id} has CWD: but no CHECK: or EXPECT:`, {
        hint: `add CHECK: and EXPECT: under criterion ${id}, or remove its CWD:`,
      }),
    );
  }

  if ((CHECK || EXPECT) && !EVIDENCE && dialect.evidenceRequired) {
    problems.push(
      problem(
        "missing-evidence",
        draft.criterion.location,
        `criterion ${id} is runnable but has no EVIDENCE: line to record its outcome`,
        { hint: `add an indented "EVIDENCE: pending" under criterion ${id}` },
      ),
    );
  }

  if (command === undefined || expect === undefined) return;
  const check: Extract<Check, { type: "oracle" }> = {
    type: "oracle",
    location: at(CHECK!),
    command,
    expect,
  };
  if (cwd !== undefined) check.cwd = cwd;
  if (EVIDENCE) check.evidence = { text: EVIDENCE.value, location: at(EVIDENCE) };
  draft.criterion.checks = [check];
}

function commandOf(attr: AttributeLine, id: string, at: Location, problems: ProblemSink): string {
  const command = unwrapBackticks(attr.value);
  if (command.trim() === "") {
    problems.push(
      problem("empty-attribute", at, `criterion ${id} has an empty CHECK:`, {
        hint: "write the command that decides the criterion after CHECK:",
      }),
    );
  }
  return command;
}

function markerOf(attr: AttributeLine, id: string, at: Location, problems: ProblemSink): Marker {
  const text = unwrapBackticks(attr.value);
  const marker = parseMarker(text);
  // An empty marker, or an empty regex `//`, matches any output: the check
  // could never fail on its marker.
  const empty = marker.kind === "literal" ? text.trim() === "" : marker.source === "";
  if (empty) {
    problems.push(
      problem("empty-attribute", at, `criterion ${id} has an empty EXPECT: marker`, {
        hint: "write the string (or /regex/) the command prints only when every assertion passed",
      }),
    );
  } else if (marker.kind === "regex") {
    const written = `/${marker.source}/${marker.flags}`;
    const error = regexError(marker.source, marker.flags)?.replace(`${written}: `, "");
    if (error === undefined && matchesEmpty(marker.source, marker.flags)) {
      problems.push(
        problem(
          "empty-attribute",
          at,
          `criterion ${id}: EXPECT: ${written} matches the empty string, so any output would satisfy it`,
          {
            hint: "write a regex that can only match the success marker, e.g. /^SUITE-GREEN$/m",
          },
        ),
      );
    }
    if (error !== undefined) {
      problems.push(
        problem(
          "invalid-regex",
          at,
          `criterion ${id}: EXPECT: ${written} does not compile: ${error}`,
          {
            hint: "fix the regular expression; a literal marker must not have the /text/flags shape",
          },
        ),
      );
    }
  }
  return marker;
}

function cwdOf(attr: AttributeLine, id: string, at: Location, problems: ProblemSink): string {
  const cwd = unwrapBackticks(attr.value);
  const reason = unsafePathReason(cwd);
  if (reason !== undefined) {
    problems.push(
      problem("unsafe-path", at, `criterion ${id}: CWD: ${JSON.stringify(cwd)} ${reason}`, {
        hint: "CWD: must be a directory relative to the repository root, like packages/api",
      }),
    );
    return cwd;
  }
  return normalizeRepoPath(cwd);
}

/**
 * A regex that matches the empty string matches every output (`/^/m`,
 * `/.*\/`, `/(?:)/`): as worthless as an empty marker. Testing it against
 * "" cannot take long, whatever the pattern.
 */
function matchesEmpty(source: string, flags: string): boolean {
  try {
    return new RegExp(source, flags).test("");
  } catch {
    // V8 compiles lazily: a pattern too large to run fails here, not at
    // construction. It cannot match anything, so it is not vacuous.
    return false;
  }
}
