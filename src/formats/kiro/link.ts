import type {
  Contract,
  Criterion,
  KiroHeader,
  KiroReference,
  KiroTask,
  Problem,
} from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { CappedProblems } from "../markdown/problem-sink.js";
import { readProperties } from "./design.js";
import { readKiroDoc } from "./read.js";
import { emptyRefList, type RefList } from "./refs.js";
import { readTasks } from "./tasks.js";

/** What the loader read beside a `requirements.md`. */
export interface KiroFiles {
  design?: { path: string; bytes: Uint8Array };
  tasks?: { path: string; bytes: Uint8Array };
  /** Whether a repo-relative path exists at the commit gated; absent: not looked up. */
  exists?: (path: string) => boolean;
}

/** The directory of a Kiro spec file, with a trailing `/`. */
export function kiroDir(path: string): string {
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** The files whose change puts a Kiro spec in scope: its requirements, design and tasks. */
export function kiroCompanions(path: string): string[] {
  const dir = kiroDir(path);
  return [path, `${dir}design.md`, `${dir}tasks.md`];
}

const SPEC_FILE = /^(.*\/)?\.kiro\/specs\/(?:[^/]+\/)+(?:requirements|design|tasks)\.md$/;

/** The `requirements.md` a Kiro spec file belongs to (itself for requirements.md), else `undefined`. */
export function kiroSpecOf(path: string): string | undefined {
  return SPEC_FILE.test(path) ? `${kiroDir(path)}requirements.md` : undefined;
}

/**
 * A Kiro spec with its design and tasks: every `_Requirements:_` and
 * `Validates:` reference resolves (a dangling one is an error at its line),
 * every acceptance criterion is cited by a task or a property (a warning
 * where none is, checked only when the spec has a tasks.md), a done task's
 * named paths exist (a warning: without the base the gate cannot tell the
 * PR's own completions from earlier ones; the base comparison blocks those),
 * and the criteria include each open task of a spec marked complete. Pure.
 */
export function linkKiroFiles(contract: Contract, files: KiroFiles): Contract {
  const header = contract.header as KiroHeader;
  if (header.kind !== "kiro-spec") return contract;
  const sink = new CappedProblems();
  const refs: RefList = emptyRefList();
  const linked: KiroHeader = { ...header };
  let loose: KiroReference[] = [];
  if (files.design) {
    const read = readKiroDoc(files.design.path, files.design.bytes);
    if ("doc" in read) {
      const found = readProperties(read, refs);
      linked.design = { path: files.design.path, properties: found.properties };
      loose = found.loose;
      for (const p of read.problems.list()) sink.push(p);
    } else sink.push(read);
  }
  if (files.tasks) {
    const read = readKiroDoc(files.tasks.path, files.tasks.bytes);
    if ("doc" in read) {
      linked.tasks = { path: files.tasks.path, tasks: readTasks(read, refs) };
      for (const p of read.problems.list()) sink.push(p);
    } else sink.push(read);
  }
  resolve(linked, loose, refs, sink);
  if (linked.tasks) coverage(linked, loose, sink);
  if (linked.tasks && files.exists) phantoms(linked.tasks.tasks, contract.path, files.exists, sink);
  return {
    ...contract,
    header: linked,
    criteria: kiroCriteria(linked),
    problems: sortProblems([...contract.problems, ...sink.list()]),
  };
}

function resolve(
  h: KiroHeader,
  loose: readonly KiroReference[],
  refs: RefList,
  sink: CappedProblems,
): void {
  const requirements = new Map(h.requirements.map((r) => [r.id, r]));
  const criteria = new Set(h.requirements.flatMap((r) => r.criteria.map((c) => c.id)));
  // What each reference lacks, worked out once (a list may repeat one 10^5 times).
  const lacks = new Map<string, string[]>();
  const missing = (ref: KiroReference): string[] => {
    const key = ref.through === undefined ? ref.id : `${ref.id}-${ref.through}`;
    let out = lacks.get(key);
    if (out === undefined) {
      out =
        ref.id === "*" || requirements.has(ref.id)
          ? []
          : members(ref).filter((id) => !criteria.has(id));
      lacks.set(key, out);
    }
    return out;
  };
  const check = (ref: KiroReference, by: string) => {
    for (const id of missing(ref)) {
      if (sink.full("kiro-dangling-reference", ref.location)) return;
      const dot = id.lastIndexOf(".");
      const req = dot === -1 ? undefined : requirements.get(id.slice(0, dot));
      const why =
        req === undefined
          ? `requirements.md has no Requirement ${dot === -1 ? id : id.slice(0, dot)}`
          : `Requirement ${req.id} has ${req.criteria.length} acceptance criteria${req.criteria.length ? ` (${req.criteria[0]!.id}–${req.criteria[req.criteria.length - 1]!.id})` : ""}`;
      sink.push(
        problem("kiro-dangling-reference", ref.location, `${by} cites ${id}, but ${why}`, {
          hint: "cite an acceptance criterion that exists (`_Requirements: 1.2_`), or add the criterion to requirements.md",
        }),
      );
    }
  };
  for (const t of h.tasks?.tasks ?? []) for (const r of t.refs) check(r, `task ${t.id}`);
  for (const p of h.design?.properties ?? []) for (const r of p.refs) check(r, `Property ${p.id}`);
  for (const r of loose) check(r, "a Validates line outside any property");
  for (const u of refs.unparsed) {
    if (sink.full("kiro-unparsed-reference", u.location)) continue;
    sink.push(
      problem(
        "kiro-unparsed-reference",
        u.location,
        `${JSON.stringify(u.text.slice(0, 60))} names no requirement or acceptance criterion the gate can read`,
        {
          hint: "cite criteria by number: `1.2`, `1` (a whole requirement), `1.1-1.4`, or `All`",
        },
      ),
    );
  }
  for (const w of refs.wide) {
    if (sink.full("kiro-unparsed-reference", w.location)) continue;
    sink.push(
      problem(
        "kiro-unparsed-reference",
        w.location,
        `${JSON.stringify(w.text.slice(0, 60))} is a range across requirements: only its two ends are read as cited`,
        { hint: "split the range per requirement: `6.1-6.6, 7.1-7.2`" },
      ),
    );
  }
}

/** The criteria a range cites, `1.2-1.4` → 1.2, 1.3, 1.4 (at most 50: refs.ts). */
export function members(ref: KiroReference): string[] {
  if (ref.through === undefined) return [ref.id];
  const dot = ref.id.lastIndexOf(".");
  const req = ref.id.slice(0, dot);
  const out: string[] = [];
  for (let k = Number(ref.id.slice(dot + 1)); k <= ref.through; k++) out.push(`${req}.${k}`);
  return out;
}

/** How many citers a criterion's reason names. */
const NAMED_CITERS = 6;

/**
 * Who cites what: criteria by id, whole requirements by id, and `All`. Kept
 * apart, so a task list of 10^5 `All` or whole-requirement references costs
 * one entry each, not one per criterion; each list keeps the first citers.
 */
class Citations {
  private readonly criteria = new Map<string, string[]>();
  private readonly requirements = new Map<string, string[]>();
  private readonly all: string[] = [];

  constructor(h: KiroHeader, loose: readonly KiroReference[]) {
    for (const t of h.tasks?.tasks ?? []) for (const r of t.refs) this.add(r, `task ${t.id}`);
    for (const p of h.design?.properties ?? [])
      for (const r of p.refs) this.add(r, `Property ${p.id}`);
    for (const r of loose) this.add(r, "design.md");
  }

  /** `<citer> <reference>` already noted: a list repeating a reference costs one lookup each. */
  private readonly seen = new Set<string>();

  private add(ref: KiroReference, by: string): void {
    const key = `${by} ${ref.id}-${ref.through ?? ""}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (ref.id === "*") {
      note(this.all, by);
      return;
    }
    if (ref.through === undefined && !ref.id.includes(".")) {
      note(entry(this.requirements, ref.id), by);
      return;
    }
    for (const id of members(ref)) note(entry(this.criteria, id), by);
  }

  /** Who cites criterion `id` of requirement `req` (empty: nobody). */
  of(req: string, id: string): string[] {
    const out: string[] = [];
    for (const list of [this.criteria.get(id), this.requirements.get(req), this.all]) {
      for (const by of list ?? []) if (out.length < NAMED_CITERS + 1) note(out, by);
    }
    return out;
  }
}

function entry(map: Map<string, string[]>, key: string): string[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

/** Add a citer to a short list (its first few, each once). */
function note(list: string[], by: string): void {
  if (list.length <= NAMED_CITERS && !list.includes(by)) list.push(by);
}

function coverage(h: KiroHeader, loose: readonly KiroReference[], sink: CappedProblems): void {
  const cited = new Citations(h, loose);
  for (const r of h.requirements) {
    for (const c of r.criteria) {
      if (cited.of(r.id, c.id).length > 0 || sink.full("kiro-uncovered-criterion", c.location))
        continue;
      sink.push(
        problem(
          "kiro-uncovered-criterion",
          c.location,
          `acceptance criterion ${c.id} is cited by no task (\`_Requirements:_\`) and no design property (\`Validates:\`): nothing says what implements or proves it`,
          {
            hint: `cite ${c.id} in the _Requirements:_ line of the task that implements it, or in a property's **Validates:** line`,
          },
        ),
      );
    }
  }
}

/** A done task's code-span paths that exist neither from the root nor beside the spec. */
function phantoms(
  tasks: KiroTask[],
  specPath: string,
  exists: (path: string) => boolean,
  sink: CappedProblems,
): void {
  const dir = kiroDir(specPath);
  for (const t of tasks) {
    if (!t.done || t.paths.length === 0) continue;
    const missing = t.paths.filter((p) => !exists(p.id) && !exists(dir + p.id));
    if (missing.length === 0) continue;
    t.missing = missing.map((p) => p.id);
    for (const p of missing) {
      if (sink.full("kiro-phantom-completion", p.location)) break;
      sink.push(
        problem(
          "kiro-phantom-completion",
          p.location,
          `task ${t.id} is marked done, but ${p.id}, named in it, does not exist at this commit`,
          {
            hint: `create ${p.id}, correct the path in the task, or uncheck the task until it is done`,
          },
        ),
      );
    }
  }
}

/** Tasks that count: not optional, and under no optional parent. */
export function requiredTasks(tasks: readonly KiroTask[]): KiroTask[] {
  const out: KiroTask[] = [];
  const optionalAt: boolean[] = [];
  for (const t of tasks) {
    optionalAt.length = t.depth;
    const optional = t.optional || optionalAt.some(Boolean);
    optionalAt[t.depth] = optional;
    if (!optional) out.push(t);
  }
  return out;
}

/**
 * A spec is marked complete when its tasks.md checks every required
 * top-level task: the tasks say the feature is done. Kiro says nothing of
 * this; it is the gate's reading, so a PR that checks the last open
 * top-level task claims the spec is complete.
 */
export function markedComplete(tasks: readonly KiroTask[]): boolean {
  const top = requiredTasks(tasks).filter((t) => t.depth === 0);
  return top.length > 0 && top.every((t) => t.done);
}

/**
 * The criteria a Kiro spec gates on: each acceptance criterion `N.M`
 * (manual until a proof decides it, showing what cites it), and, when the
 * spec is marked complete, each required task still open (unmet, blocking).
 */
export function kiroCriteria(h: KiroHeader): Criterion[] {
  const out: Criterion[] = [];
  const cited = new Citations(h, []);
  for (const r of h.requirements) {
    for (const c of r.criteria) {
      const found = cited.of(r.id, c.id);
      const by = found.length > 0 ? found : undefined;
      out.push({
        id: c.id,
        title: c.text,
        location: c.location,
        checks: [],
        settled: {
          status: "manual",
          blocking: false,
          reason: by
            ? `not proved by a test the gate runs; cited by ${by.slice(0, NAMED_CITERS).join(", ")}${by.length > NAMED_CITERS ? ", …" : ""}`
            : "not proved: no task or property cites it",
        },
      });
    }
  }
  const tasks = h.tasks?.tasks ?? [];
  if (markedComplete(tasks)) {
    for (const t of requiredTasks(tasks)) {
      if (t.done) continue;
      out.push({
        id: `task ${t.id}`,
        title: t.title,
        location: t.location,
        checks: [],
        settled: {
          status: "unmet",
          blocking: true,
          reason:
            "the spec is marked complete (every required top-level task is checked), but this task is still open",
        },
      });
    }
  }
  return out;
}

export type { Problem };
