import type { Check, Criterion, MapEntry, RequirementModel } from "../../model/contract.js";

type CommandCheck = Extract<Check, { type: "oracle" }>;

/**
 * The criteria a requirement spec gates on (seed 004, "the evaluator trusts
 * nothing it did not run"):
 * - each Verification command (`V1`…): run in the sandbox at head, met on exit 0;
 * - each requirement and acceptance criterion, decided by the Requirement
 *   Map: mapped to a test → awaiting proof (shown, never green, not
 *   blocking) until the requirement proof runs it; `manual:` → manual,
 *   showing how a person checks it. An acceptance criterion a Verification
 *   command proves is decided by that command;
 * - each open question (`Q1`…) while the spec needs clarification: blocking,
 *   showing the question ("a spec that still needs clarification never
 *   reaches the build").
 */
export function specCriteria(model: RequirementModel, needsClarification: boolean): Criterion[] {
  const out: Criterion[] = [];
  const commands = new Map<string, CommandCheck[]>();
  const verify: Criterion[] = [];
  model.verification.forEach((v) => {
    if (v.kind !== "command") return;
    const check: CommandCheck = { type: "oracle", location: v.location, command: v.command };
    verify.push({
      id: `V${verify.length + 1}`,
      title: `\`${v.command}\``,
      location: v.location,
      checks: [check],
    });
    for (const p of v.proves) {
      const list = commands.get(p.id) ?? [];
      list.push(check);
      commands.set(p.id, list);
    }
  });

  if (needsClarification) {
    const questions = model.openQuestions;
    if (questions.length === 0 && model.status) {
      out.push(question("Q1", "the spec's status is NEEDS CLARIFICATION", model.status.location));
    }
    questions.forEach((q, k) => {
      out.push(question(`Q${k + 1}`, q.text, q.location));
    });
  }

  const settle = new Settlements();
  const mapped = new Map<string, MapEntry>();
  // Indexed loops: a 1 MiB spec holds tens of thousands of requirements.
  const entries = model.map?.entries ?? [];
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (!mapped.has(e.requirement.id)) mapped.set(e.requirement.id, e);
  }
  out.push(...verify);
  for (let k = 0; k < model.requirements.length; k++) {
    const r = model.requirements[k]!;
    if (r.tag === "REMOVED") continue;
    out.push({
      id: r.id,
      title: r.text,
      location: r.location,
      checks: [],
      settled: settle.requirement(mapped.get(r.id), r.id),
    });
  }
  for (const a of model.acceptance) {
    const proving = commands.get(a.id);
    if (proving) {
      out.push({
        id: a.id,
        title: a.text,
        location: a.location,
        checks: proving,
        ...(a.ticked !== undefined && { ticked: a.ticked }),
      });
      continue;
    }
    const entries = a.refs.map((r) => mapped.get(r.id));
    const manual = entries.find((e) => e?.target.kind === "manual");
    const settled =
      a.refs.length === 0
        ? byMap(undefined, `${a.id} names no requirement and no Verification command proves it`)
        : entries.some((e) => e === undefined)
          ? byMap(undefined, `${a.id} names a requirement with no line in the ## Requirement Map`)
          : manual
            ? byMap(manual, "")
            : {
                status: "awaiting-proof" as const,
                blocking: false,
                reason: `awaiting proof of ${a.refs.map((r) => r.id).join(", ")}`,
              };
    out.push({
      id: a.id,
      title: a.text,
      location: a.location,
      checks: [],
      settled,
      ...(a.ticked !== undefined && { ticked: a.ticked }),
    });
  }
  return out;
}

type Settled = NonNullable<Criterion["settled"]>;

/**
 * Requirements' settlements, kept as long as the criteria: each reason is
 * one flat string (a template literal kept long-term is a chain of
 * concatenation nodes, each copied by every garbage collection it lives
 * through, and a 1 MiB spec holds tens of thousands of requirements), and
 * requirements mapped to the same test share one settlement (nothing
 * changes a settlement once made).
 */
class Settlements {
  private readonly byTest = new Map<string, Map<string, Settled>>();

  /** A requirement's settlement; the unmapped reason is built only when it is unmapped. */
  requirement(entry: MapEntry | undefined, id: string): Settled {
    if (entry === undefined) {
      return {
        status: "manual",
        blocking: false,
        reason: ["not proved: ", id, " has no line in the ## Requirement Map"].join(""),
      };
    }
    const target = entry.target;
    if (target.kind === "manual") return byMap(entry, "");
    let byName = this.byTest.get(target.file);
    if (byName === undefined) {
      byName = new Map();
      this.byTest.set(target.file, byName);
    }
    let settled = byName.get(target.name);
    if (settled === undefined) {
      settled = {
        status: "awaiting-proof",
        blocking: false,
        reason: [
          "awaiting proof: mapped to ",
          target.file,
          " > ",
          target.name,
          ", which no proof has run yet",
        ].join(""),
      };
      byName.set(target.name, settled);
    }
    return settled;
  }
}

function byMap(entry: MapEntry | undefined, unmapped: string): NonNullable<Criterion["settled"]> {
  if (entry === undefined)
    return { status: "manual", blocking: false, reason: `not proved: ${unmapped}` };
  if (entry.target.kind === "manual") {
    return { status: "manual", blocking: false, reason: `manual: ${entry.target.text}` };
  }
  return {
    status: "awaiting-proof",
    blocking: false,
    reason: `awaiting proof: mapped to ${entry.target.file} > ${entry.target.name}, which no proof has run yet`,
  };
}

function question(id: string, text: string, location: Criterion["location"]): Criterion {
  return {
    id,
    title: `needs clarification: ${text}`,
    location,
    checks: [],
    settled: {
      status: "unmet",
      blocking: true,
      reason:
        "an open question: a spec that needs clarification never reaches the build; answer it and set the spec READY",
    },
  };
}
