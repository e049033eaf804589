import type { GatesLedgerHeader } from "../../model/contract.js";
import { atxText, type Doc } from "../markdown/lines.js";

const TITLE = /^#[ \t]/;
const GATES_PREFIX = /^Gates[ \t]*:[ \t]*(.*)$/is;
const OWNS = /^(?:OWNS|Owns)[ \t]*:(.*)$/s;
const SCOPE = /^Scope[ \t]*:(.*)$/s;

/**
 * The facts above the first gate: the `# Gates: <name>` title, `Scope:` and
 * `OWNS:` (unlazy reads `OWNS:` only before the first gate, a
 * comma-separated list of globs). Information only: nothing here decides a
 * verdict, so a fact in another shape is simply left out.
 */
export function readLedgerHeader(doc: Doc, firstGate: number): GatesLedgerHeader {
  const header: GatesLedgerHeader = { kind: "gates-ledger" };
  for (let i = 0; i < firstGate; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!.trim();
    if (TITLE.test(line) && header.title === undefined) {
      const text = atxText(line);
      header.title = GATES_PREFIX.exec(text)?.[1]?.trim() || text;
      continue;
    }
    const owns = OWNS.exec(line);
    if (owns) {
      header.owns = [
        ...(header.owns ?? []),
        ...owns[1]!
          .split(",")
          .map((g) => g.trim())
          .filter((g) => g !== ""),
      ];
      continue;
    }
    const scope = SCOPE.exec(line);
    if (scope && header.scope === undefined) header.scope = scope[1]!.trim();
  }
  return header;
}
