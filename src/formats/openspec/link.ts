import type {
  Contract,
  Criterion,
  OpenspecDelta,
  OpenspecHeader,
  OpenspecMainSpec,
  OpenspecRequirement,
  OpenspecTask,
  Problem,
} from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { parseDelta } from "./delta.js";
import { parseMainSpec } from "./main-spec.js";
import { parseTasks } from "./tasks.js";

/** What the loader read for a change, beside its `proposal.md`. */
export interface ChangeFiles {
  tasks?: { path: string; bytes: Uint8Array };
  /** `specs/<capability>/spec.md` under the change folder, in path order. */
  deltas: { path: string; capability: string; bytes: Uint8Array }[];
  /** Each delta's capability → its main spec at the commit gated (absent: there is none). */
  mains: ReadonlyMap<string, { path: string; bytes: Uint8Array }>;
  /** A `spec.md` directly under the change's `specs/` (no capability): OpenSpec refuses it. */
  rootDelta?: string;
  /** `.openspec.yaml` says `skip_specs: true`: a change with no deltas on purpose. */
  skipSpecs: boolean;
  /** Whether a repo-relative path exists at the commit gated. */
  exists: (path: string) => boolean;
  /** Every file read (repo-relative), for the comparison and `worktree-modified`. */
  files: string[];
}

const LIMIT = 100;

/**
 * A change with its folder read: each delta's rules, each delta against the
 * main spec of its capability (what `openspec archive` would refuse), at
 * least one delta, the tasks' numbering and phantom completions; every ADDED
 * and MODIFIED requirement a criterion. Pure: the loader read the files.
 */
export function linkOpenspecChange(contract: Contract, files: ChangeFiles): Contract {
  const header = contract.header as OpenspecHeader;
  const id = header.change?.id ?? "";
  const problems: Problem[] = [...contract.problems];
  const deltas: OpenspecDelta[] = [];
  for (const d of files.deltas) {
    const parsed = parseDelta(d.path, d.capability, d.bytes);
    problems.push(...parsed.problems);
    deltas.push(parsed.delta);
    const main = files.mains.get(d.capability);
    problems.push(
      ...againstMain(parsed.delta, main && parseMainSpec(main.path, d.capability, main.bytes).spec),
    );
  }
  if (files.rootDelta !== undefined) {
    problems.push(
      problem(
        "openspec-delta-section",
        { path: files.rootDelta, line: 1, column: 1 },
        "a delta spec directly under the change's specs/ names no capability: OpenSpec refuses it",
        { hint: "move it to specs/<capability>/spec.md, the capability it changes" },
      ),
    );
  }
  const entries = deltas.reduce(
    (n, d) => n + d.added.length + d.modified.length + d.removed.length + d.renamed.length,
    0,
  );
  // A delta file with no entry says so itself; here, a change with no delta file at all.
  if (entries === 0 && !files.skipSpecs) {
    if (deltas.length === 0 && files.rootDelta === undefined) {
      problems.push(
        problem(
          "openspec-no-delta",
          { path: contract.path, line: 1, column: 1 },
          `change ${id} has no delta spec: nothing under specs/<capability>/spec.md says which requirements it adds, modifies, removes or renames`,
          {
            hint: "add `specs/<capability>/spec.md` with `## ADDED Requirements` and a `### Requirement: <name>` block (or `skip_specs: true` in .openspec.yaml for a change with no spec impact)",
          },
        ),
      );
    }
  }
  let tasks: { path: string; tasks: OpenspecTask[] } | undefined;
  if (files.tasks) {
    const parsed = parseTasks(files.tasks.path, files.tasks.bytes);
    problems.push(...parsed.problems);
    tasks = { path: files.tasks.path, tasks: parsed.tasks };
    problems.push(...phantoms(tasks.path, parsed.tasks, files.exists));
  }
  const linked: OpenspecHeader = {
    kind: "openspec-change",
    change: { id, deltas, ...(tasks && { tasks }), files: files.files },
  };
  return {
    ...contract,
    header: linked,
    criteria: changeCriteria(deltas),
    problems: sortProblems(problems),
  };
}

/**
 * What `openspec archive` applies, in its order (RENAMED, REMOVED, MODIFIED,
 * ADDED), checked against the main spec before it would fail there.
 */
function againstMain(delta: OpenspecDelta, main: OpenspecMainSpec | undefined): Problem[] {
  const out: Problem[] = [];
  const say = (at: { path: string; line: number; column: number }, message: string, hint: string) =>
    out.push(problem("openspec-base-mismatch", at, message, { hint }));
  const mainPath = delta.path.replace(/changes\/[^/]+\/specs\//, "specs/");
  if (main === undefined) {
    for (const [list, op] of [
      [delta.modified, "MODIFIED"],
      [delta.removed, "REMOVED"],
    ] as const) {
      for (const e of list) {
        say(
          e.location,
          `${op} "${e.name}", but there is no main spec ${mainPath}: a new capability takes only ADDED requirements`,
          "use ADDED for the requirements of a new capability, or correct the capability folder's name",
        );
      }
    }
    for (const r of delta.renamed) {
      say(
        r.location,
        `RENAMED "${r.from}", but there is no main spec ${mainPath}: a new capability takes only ADDED requirements`,
        "use ADDED for the requirements of a new capability, or correct the capability folder's name",
      );
    }
    return out;
  }
  const byName = new Map(main.requirements.map((r) => [r.name, r]));
  const names = new Set(byName.keys());
  const source = new Map<string, OpenspecRequirement>();
  for (const r of delta.renamed) {
    const from = byName.get(r.from);
    if (from === undefined) {
      say(
        r.location,
        `RENAMED from "${r.from}", which ${main.path} does not have${near(r.from, names)}`,
        "copy the old header from the main spec exactly (names are case-sensitive)",
      );
      continue;
    }
    if (names.has(r.to) && r.to !== r.from) {
      say(
        r.location,
        `RENAMED to "${r.to}", which ${main.path} already has`,
        "rename to a name the main spec does not use",
      );
    }
    names.delete(r.from);
    names.add(r.to);
    source.set(r.to, from);
  }
  for (const r of delta.removed) {
    if (!names.has(r.name)) {
      say(
        r.location,
        `REMOVED "${r.name}", which ${main.path} does not have${near(r.name, names)}`,
        "copy the header from the main spec exactly (names are case-sensitive), or drop the entry",
      );
    } else names.delete(r.name);
  }
  for (const r of delta.modified) {
    if (!names.has(r.name)) {
      say(
        r.location,
        `MODIFIED "${r.name}", which ${main.path} does not have${near(r.name, names)}: \`openspec archive\` would fail`,
        "copy the header from the main spec exactly (names are case-sensitive), or use ADDED for a new requirement",
      );
      continue;
    }
    const current = source.get(r.name) ?? byName.get(r.name);
    if (current === undefined) continue;
    const kept = r.scenarios.map((s) => s.name);
    const dropped: string[] = [];
    for (const s of current.scenarios) {
      const k = kept.indexOf(s.name);
      if (k === -1) dropped.push(s.name);
      else kept.splice(k, 1);
    }
    if (dropped.length > 0) {
      say(
        r.location,
        `MODIFIED "${r.name}" drops scenario${dropped.length > 1 ? "s" : ""} the main spec still has: ${dropped.map((s) => `"${s}"`).join(", ")}; a MODIFIED block replaces the whole requirement`,
        "copy every current scenario into the MODIFIED block (change them there as needed); to retire a scenario, say so in the proposal and keep it until then",
      );
    }
  }
  for (const r of delta.added) {
    if (names.has(r.name)) {
      say(
        r.location,
        `ADDED "${r.name}", which ${main.path} already has: \`openspec archive\` would refuse it`,
        "use MODIFIED to change an existing requirement, or give the new one another name",
      );
    }
  }
  return out;
}

/** ` (did you mean "X"?)` when a name differs from one the spec has only in case or spacing. */
function near(name: string, names: ReadonlySet<string>): string {
  const fold = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const f = fold(name);
  for (const n of names) if (fold(n) === f) return ` (it has "${n}": names are exact)`;
  return "";
}

/** Done tasks naming a repository path that exists neither from the root nor in the change folder. */
function phantoms(
  path: string,
  tasks: readonly OpenspecTask[],
  exists: (p: string) => boolean,
): Problem[] {
  const out: Problem[] = [];
  const dir = path.slice(0, path.lastIndexOf("/") + 1);
  for (const t of tasks) {
    if (!t.done || t.removes) continue;
    for (const p of t.paths) {
      if (exists(p.id) || (dir !== "" && exists(dir + p.id))) continue;
      if (out.length >= LIMIT) return out;
      out.push(
        problem(
          "phantom-completion",
          p.location,
          `task ${t.id ?? JSON.stringify(t.text.slice(0, 40))} is marked done, but ${p.id}, named in it, does not exist at this commit`,
          {
            hint: `create ${p.id}, correct the path in the task, or uncheck the task until it is done`,
          },
        ),
      );
    }
  }
  return out;
}

/**
 * Every ADDED and MODIFIED requirement of the change, its scenarios as its
 * acceptance. OpenSpec names no test for a requirement, so each is shown as
 * not proved, never green and not blocking, as a spec-kit spec without a
 * Requirement Map.
 */
function changeCriteria(deltas: readonly OpenspecDelta[]): Criterion[] {
  const out: Criterion[] = [];
  for (const d of deltas) {
    for (const [op, list] of [
      ["ADDED", d.added],
      ["MODIFIED", d.modified],
    ] as const) {
      for (const r of list) {
        const scenarios = r.scenarios.map((s) => s.name).join("; ");
        out.push({
          id: `${d.capability}:${r.name}`,
          title: `${op}: ${r.text.split("\n")[0] ?? ""}`,
          location: r.location,
          checks: [],
          settled: {
            status: "manual",
            blocking: false,
            reason: `not proved: OpenSpec maps no test to a requirement${scenarios ? ` (scenarios: ${scenarios})` : ""}`,
          },
        });
      }
    }
  }
  return out;
}
