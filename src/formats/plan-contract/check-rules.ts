import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import type { JsonDocument } from "../json/document.js";
import { formatPath } from "../json/path.js";
import {
  checkType,
  field,
  type JsonObject,
  type Located,
  objectEntries,
  stringField,
} from "../json/raw.js";
import { pathReason, regexReason } from "../memo.js";
import { commandHint, describeChar, unsafeCommandChars } from "./command-safety.js";

/** JSON authors must double the backslash, which is the usual way this goes wrong. */
const REGEX_HINT =
  'patterns are JavaScript regular expressions; escape a literal ( [ { . * + ? with a backslash, written "\\\\" inside a JSON string';
const PATH_HINT = "paths are relative to the repository root, with / separators";

/**
 * Problems in one verification check that the schema cannot see: unsafe
 * paths, regexes that do not compile, shell syntax in a command (rule 8) and
 * bad evidence (rule 11). Fields are read only for the check's own `type`.
 * The criteria builder reuses this: a check with any of these never becomes
 * an executable criterion.
 */
export function checkProblems(doc: JsonDocument, check: Located<JsonObject>): Problem[] {
  const problems: Problem[] = [];
  // Values are read raw and a path is built only for a problem: most checks have none.
  switch (checkType(check.value)) {
    case "file-exists":
      unsafePath(doc, check, "path", problems);
      break;
    case "grep-match":
      // A glob is fine here ("src/**/*.ts"); it still must stay inside the repo.
      unsafePath(doc, check, "path", problems);
      badRegex(doc, check, "pattern", problems);
      break;
    case "command-exit": {
      const command = field(check.value, "command");
      const chars = typeof command === "string" ? unsafeCommandChars(command) : [];
      if (typeof command === "string" && chars.length > 0) {
        const path = [...check.path, "command"];
        problems.push(
          problem(
            "unsafe-command",
            doc.valueAt(path),
            `${formatPath(path)} ${JSON.stringify(command)} contains ${chars.map(describeChar).join(", ")}`,
            { hint: commandHint(command, chars) },
          ),
        );
      }
      unsafePath(doc, check, "cwd", problems);
      badRegex(doc, check, "expect_stdout_match", problems);
      break;
    }
    case "behavioral":
      for (const evidence of objectEntries(check.value, "evidence_required", check.path)) {
        for (const p of evidenceProblems(doc, evidence)) problems.push(p);
      }
      break;
  }
  return problems;
}

function unsafePath(
  doc: JsonDocument,
  check: Located<JsonObject>,
  key: string,
  problems: Problem[],
): void {
  const value = field(check.value, key);
  const reason = typeof value === "string" ? pathReason(value) : undefined;
  if (!reason) return;
  const path = [...check.path, key];
  problems.push(
    problem(
      "unsafe-path",
      doc.valueAt(path),
      `${formatPath(path)} ${JSON.stringify(value)} ${reason}`,
      { hint: PATH_HINT },
    ),
  );
}

function badRegex(
  doc: JsonDocument,
  check: Located<JsonObject>,
  key: string,
  problems: Problem[],
): void {
  const value = field(check.value, key);
  const error = typeof value === "string" ? regexReason(value) : undefined;
  if (!error) return;
  const path = [...check.path, key];
  problems.push(
    problem(
      "invalid-regex",
      doc.valueAt(path),
      `${formatPath(path)} ${JSON.stringify(value)} is not a valid regular expression: ${error}`,
      { hint: REGEX_HINT },
    ),
  );
}

/** Rule 11: a citation must name a repo-relative file and a compilable matcher. */
function evidenceProblems(doc: JsonDocument, evidence: Located<JsonObject>): Problem[] {
  const problems: Problem[] = [];
  const path = stringField(evidence.value, "path", evidence.path);
  const unsafe = path && pathReason(path.value);
  if (path && unsafe) {
    problems.push(
      problem(
        "invalid-evidence",
        doc.valueAt(path.path),
        `${formatPath(path.path)} ${JSON.stringify(path.value)} is not repo-relative: it ${unsafe}`,
        { hint: PATH_HINT },
      ),
    );
  }
  const matcher = stringField(evidence.value, "matcher", evidence.path);
  const matcherError = matcher && regexReason(matcher.value);
  if (matcher && matcherError) {
    problems.push(
      problem(
        "invalid-evidence",
        doc.valueAt(matcher.path),
        `${formatPath(matcher.path)} ${JSON.stringify(matcher.value)} is not a valid regular expression: ${matcherError}`,
      ),
    );
  }
  return problems;
}
