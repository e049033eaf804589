import type { Check, Marker } from "../model/contract.js";

/** Longest command or pattern quoted in full; longer ones are cut with "…". */
const QUOTE_LIMIT = 160;

/**
 * What a check requires, in one line a reader compares with what happened:
 * the file, the pattern, the exit code, the marker. Taken from the parsed
 * check, never from anything the command printed.
 */
export function expectation(check: Check): string {
  switch (check.type) {
    case "file-exists":
      return `a regular file ${check.path}${check.mustContain !== undefined ? ` containing ${quote(check.mustContain)}` : ""}`;
    case "grep-match":
      return check.expect === "present"
        ? `a line matching /${cut(check.pattern)}/ in ${check.path}`
        : `no line matching /${cut(check.pattern)}/ in ${check.path}`;
    case "command-exit": {
      const line = cut([check.command, ...check.args].map(shellWord).join(" "));
      const stdout =
        check.expectStdoutMatch !== undefined
          ? `, stdout matching /${cut(check.expectStdoutMatch)}/`
          : "";
      return `\`${line}\` exits ${check.expectedExit}${stdout} within ${seconds(check.timeoutMs)}`;
    }
    case "behavioral": {
      const n = check.evidenceRequired.length;
      return `a citation in the evidence file that re-reads true for each of ${n} evidence entr${n === 1 ? "y" : "ies"}`;
    }
    case "oracle":
      // A spec's Verification command has no marker: exit 0 alone decides it.
      return check.expect === undefined
        ? `\`${cut(check.command)}\` exits 0`
        : `\`${cut(check.command)}\` exits 0 and prints ${marker(check.expect)}`;
  }
}

/** An argument as a shell would need it written: quoted when it holds anything but plain characters. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

function marker(m: Marker): string {
  return m.kind === "literal"
    ? `the marker ${quote(m.text)}`
    : `output matching /${cut(m.source)}/${m.flags}`;
}

function quote(s: string): string {
  return JSON.stringify(cut(s));
}

/** One line: newlines shown as ⏎ so a multi-line command stays on its row. */
function cut(s: string): string {
  const one = s.replace(/\r?\n/g, " ⏎ ");
  return one.length > QUOTE_LIMIT ? `${one.slice(0, QUOTE_LIMIT - 1)}…` : one;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
