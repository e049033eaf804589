import { criteriaFindings } from "./oracle-diff.js";
import { contractRemoved } from "./removed.js";
import type { At } from "./section-diff.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/**
 * An unlazy gate ledger, base vs head (pure). Its immutability rules are the
 * markdown contract's mapped onto the dialect (unlazy's references/gates.md:
 * "If a gate becomes impossible, do not delete it. Add a line: ABANDON"):
 * a ledger or a gate removed, a gate renumbered, its CHECK/EXPECT/CWD changed
 * or dropped, an ABANDON rewritten or removed all block until a reviewer
 * approves. A new ABANDON blocks too: unlazy counts an abandoned gate as
 * resolved, so surrendering one is a reviewer's call, not the author's.
 * Adding gates only adds what must pass: no finding, as is a reworded
 * title's note. EVIDENCE lines and boxes are never compared: every gate
 * re-runs whatever they say.
 */
export function gatesLedgerFindings(
  base: ContractVersion,
  head: ContractVersion | undefined,
): Finding[] {
  if (head === undefined || head.path !== base.path || head.contract.kind !== base.contract.kind) {
    return [
      contractRemoved(
        base,
        head === undefined || head.path !== base.path
          ? `${base.path} was deleted or renamed out of the contract globs, so its gates no longer gate anything`
          : `${base.path} became ${head.path}, a contract of another kind`,
      ),
    ];
  }
  const at: At = (line, subject) => ({
    contract: head.path,
    kind: "gates-ledger",
    path: head.path,
    line: Math.max(1, line),
    subject: subject.replace(/^criterion /, "gate "),
  });
  const out = criteriaFindings(base.contract.criteria, head.contract.criteria, at).filter(
    (f) => f.code !== "ungated-append",
  );
  const before = new Map(base.contract.criteria.map((c) => [c.id, c]));
  for (const h of head.contract.criteria) {
    if (h.abandon === undefined || before.get(h.id)?.abandon !== undefined) continue;
    out.push(
      finding({
        code: "abandon-added",
        ...at(h.abandon.location.line, `ABANDON ${h.id}`),
        message: `gate ${h.id} was abandoned in this change: surrendering a gate needs a reviewer's approval`,
        after: `ABANDON: ${h.id} ${h.abandon.reason}`,
      }),
    );
  }
  return out;
}
