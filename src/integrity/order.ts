import type { Check, Contract } from "../model/contract.js";
import { runOrder } from "../model/run-order.js";
import { checkKey } from "./effect.js";
import { type Finding, finding } from "./types.js";

/**
 * Order is part of a check's meaning (issue 32, item 4): within a contract,
 * the commands that run before a command check, or beside it in the same
 * wave, can change what it sees. A command check kept at head (the same
 * check, by `checkKey`) that has a command before or beside it that it did
 * not have at base — it moved to a later wave, behind a new `depends_on`, or
 * a new command came before it — is a changed check, whatever form the
 * change took (in place, regenerated, superseded). Judged by effect: a move
 * that puts nothing new before it is no finding. Static checks are never
 * the subject: they read the commit, whatever ran before them. Pure.
 */

const COMMANDS = new Set<Check["type"]>(["command-exit", "oracle"]);

interface Placed {
  key: string;
  line: number;
  id: string;
  /** The keys of the commands that may run before it or beside it. */
  before: Set<string>;
}

/** Each command check of `contract`, with what may run before it (`runOrder`). */
function placed(contract: Contract): Placed[] {
  const out: Placed[] = [];
  const earlier = new Set<string>();
  // A spec's Verification command is one check object in several criteria, run once.
  const seen = new Set<Check>();
  for (const step of runOrder(contract)) {
    const inStep: { key: string; line: number; id: string; criterion: number }[] = [];
    step.forEach((criterion, c) => {
      for (const check of criterion.checks) {
        if (!COMMANDS.has(check.type) || seen.has(check)) continue;
        seen.add(check);
        inStep.push({
          key: checkKey(check),
          line: check.location.line,
          id: criterion.id,
          criterion: c,
        });
      }
    });
    inStep.forEach((entry, j) => {
      // Earlier steps; the step's other criteria (they run together); its own earlier checks.
      const before = new Set(earlier);
      inStep.forEach((other, i) => {
        if (other.criterion !== entry.criterion || i < j) before.add(other.key);
      });
      out.push({ key: entry.key, line: entry.line, id: entry.id, before });
    });
    for (const entry of inStep) earlier.add(entry.key);
  }
  return out;
}

/** One blocking `check-reordered` finding per kept command check with a new command before or beside it. */
export function reorderedFindings(base: Contract, heads: readonly Contract[]): Finding[] {
  const atBase = new Map<string, Set<string>[]>();
  for (const b of placed(base)) atBase.set(b.key, [...(atBase.get(b.key) ?? []), b.before]);
  const out: Finding[] = [];
  for (const head of heads) {
    for (const h of placed(head)) {
      const was = atBase.get(h.key);
      // New at head (additions never count), or a base check kept as it was.
      if (was === undefined || was.some((w) => [...h.before].every((k) => w.has(k)))) continue;
      const fresh = [...h.before].filter((k) => !was.some((w) => w.has(k))).length;
      const what = fresh === 1 ? "a command" : fresh > 1 ? `${fresh} commands` : "commands";
      out.push(
        finding({
          code: "check-reordered",
          contract: head.path,
          kind: head.kind,
          path: head.path,
          line: h.line,
          subject: `criterion ${h.id}`,
          message: `criterion ${h.id} runs a command check kept from base after ${what} that did not run before it at base (a later wave, a new depends_on, or a new command before it): what runs before a check is part of what it checks`,
        }),
      );
    }
  }
  return out;
}
