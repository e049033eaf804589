import type {
  Location,
  Requirement,
  RequirementModel,
  SpecReference,
} from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import type { ProblemSink } from "../markdown/problem-sink.js";

/**
 * The static rules every requirement spec obeys, over the one model: ids
 * unique, references in defining positions resolve, (spec) every requirement
 * covered, and the Requirement Map. Ids in prose (another spec's FR, a
 * descoped item) are not references: only the positions the grammar defines
 * are read.
 */
export function checkModel(model: RequirementModel, problems: ProblemSink, top: Location): void {
  const fr = unique(model.requirements, "requirement", problems);
  const ac = unique(model.acceptance, "acceptance criterion", problems);
  unique(model.successCriteria, "success criterion", problems);
  unique(
    model.stories.map((s) => ({ id: `User Story ${s.n}`, location: s.location })),
    "user story",
    problems,
  );

  // Indexed loops over the per-requirement lists: a 1 MiB spec holds tens of
  // thousands of items, and an iterator that is not optimised away allocates
  // a result per step.
  for (let k = 0; k < model.scenarios.length; k++) {
    const s = model.scenarios[k]!;
    // The message's subject is built only for a scenario that names an undefined id.
    if (!allDefined(s.refs, fr)) resolve(s.refs, fr, `scenario "${s.id}"`, "requirement", problems);
  }
  for (const a of model.acceptance) resolve(a.refs, fr, a.id, "requirement", problems);
  const manualIn = new Set<string>();
  for (const v of model.verification) {
    if (v.kind === "manual") {
      resolve([v.requirement], fr, "the manual Verification entry", "requirement", problems);
      manualIn.add(v.requirement.id);
    } else {
      for (const ref of v.proves) {
        resolve(
          [ref],
          ref.id.startsWith("AC-") ? ac : fr,
          "this Verification command",
          ref.id.startsWith("AC-") ? "acceptance criterion" : "requirement",
          problems,
        );
      }
    }
  }

  const live = model.requirements.filter((r) => r.tag !== "REMOVED");
  if (model.layout === "spec") {
    const covered = new Set<string>();
    for (let k = 0; k < model.scenarios.length; k++) {
      const refs = model.scenarios[k]!.refs;
      for (let j = 0; j < refs.length; j++) covered.add(refs[j]!.id);
    }
    for (const a of model.acceptance) for (const r of a.refs) covered.add(r.id);
    for (let k = 0; k < live.length; k++) {
      const r = live[k]!;
      if (covered.has(r.id) || problems.full("uncovered-requirement", r.location)) continue;
      problems.push(
        problem(
          "uncovered-requirement",
          r.location,
          `${r.id} is covered by no scenario and no acceptance criterion`,
          {
            hint: `name ${r.id} in a \`Scenario: <name> (${r.id})\` line or an acceptance criterion \`- [ ] AC-n (${r.id}): …\`; a requirement nothing exercises cannot be proved`,
          },
        ),
      );
    }
  }

  checkMap(model, live, fr, manualIn, problems, top);
}

function checkMap(
  model: RequirementModel,
  live: readonly Requirement[],
  fr: ReadonlyMap<string, Location>,
  manualIn: ReadonlySet<string>,
  problems: ProblemSink,
  top: Location,
): void {
  if (model.map === undefined) {
    if (live.length > 0) {
      problems.push(
        problem(
          "no-requirement-map",
          top,
          `there is no ## Requirement Map: nothing says which test proves each of the ${live.length} requirement${live.length === 1 ? "" : "s"}, shown unmapped (not blocking; the action's requirement-map: required or the CLI's --requirement-map required makes it block)`,
          {
            hint: "add a `## Requirement Map` section with one line per requirement: `- FR-001 → tests/x.test.ts > <test name>`",
          },
        ),
      );
    }
    return;
  }
  const mapped = new Map<string, Location>();
  const entries = model.map.entries;
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    const id = e.requirement.id;
    if (!fr.has(id)) {
      resolve([e.requirement], fr, "this map line", "requirement", problems);
      continue;
    }
    const first = mapped.get(id);
    if (first !== undefined) {
      problems.push(
        problem("duplicate-id", e.location, `${id} is already mapped on line ${first.line}`, {
          hint: "map each requirement once, to the one test that proves it",
        }),
      );
      continue;
    }
    mapped.set(id, e.location);
    if (e.target.kind === "manual" && !manualIn.has(id)) {
      problems.push(
        problem(
          "manual-not-allowed",
          e.location,
          `${id} is mapped to manual:, but the spec's ## Verification does not say no command can prove it`,
          {
            hint: `map ${id} to a test, or add \`- manual: ${id} — <why no command can prove it>\` under ## Verification`,
          },
        ),
      );
    }
  }
  for (let k = 0; k < live.length; k++) {
    const r = live[k]!;
    if (mapped.has(r.id) || problems.full("unmapped-requirement", r.location)) continue;
    problems.push(
      problem("unmapped-requirement", r.location, `${r.id} has no line in the ## Requirement Map`, {
        hint: `add \`- ${r.id} → <file> > <test name>\` (or \`→ manual: <how>\` where ## Verification allows it) to the ## Requirement Map`,
      }),
    );
  }
}

/** The first definition of each id; later ones are `duplicate-id` errors. */
function unique(
  items: readonly { id: string; location: Location }[],
  what: string,
  problems: ProblemSink,
): Map<string, Location> {
  const seen = new Map<string, Location>();
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const first = seen.get(item.id);
    if (first === undefined) {
      seen.set(item.id, item.location);
      continue;
    }
    if (problems.full("duplicate-id", item.location)) continue;
    problems.push(
      problem(
        "duplicate-id",
        item.location,
        `${what} ${item.id} is already defined on line ${first.line}`,
        {
          hint: `give every ${what} its own id: the map, scenarios and the base comparison name them by id`,
        },
      ),
    );
  }
  return seen;
}

function allDefined(
  refs: readonly SpecReference[],
  defined: ReadonlyMap<string, Location>,
): boolean {
  for (let k = 0; k < refs.length; k++) if (!defined.has(refs[k]!.id)) return false;
  return true;
}

function resolve(
  refs: readonly SpecReference[],
  defined: ReadonlyMap<string, Location>,
  where: string,
  what: string,
  problems: ProblemSink,
): void {
  for (let k = 0; k < refs.length; k++) {
    const ref = refs[k]!;
    if (defined.has(ref.id)) continue;
    if (problems.full("unresolved-reference", ref.location)) continue;
    problems.push(
      problem(
        "unresolved-reference",
        ref.location,
        `${where} names ${ref.id}, which is no ${what} of this spec`,
        {
          hint: `define ${ref.id} in the spec, or name one that exists`,
        },
      ),
    );
  }
}
