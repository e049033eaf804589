import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type EvidenceFile, parseEvidenceFile } from "../formats/evidence/index.js";
import { kindOf, parseContract } from "../formats/index.js";
import { openspecPlace } from "../formats/kinds/openspec.js";
import { phaseFiles } from "../formats/kinds/phase-files.js";
import { type KiroFiles, kiroDir, linkKiroFiles } from "../formats/kiro/index.js";
import { type ChangeFiles, linkOpenspecChange } from "../formats/openspec/index.js";
import { planHash } from "../formats/plan-hash.js";
import { linkSpecFiles, readTasksFile, type SpecFiles, specDir } from "../formats/spec/index.js";
import { fileTooLarge, MAX_CONTRACT_BYTES } from "../formats/text.js";
import { linkResearch, researchPathOf } from "../formats/workphase/index.js";
import { type DirListing, dirListing } from "../fs/dir-listing.js";
import { type RepoFileRead, readRepoFile } from "../fs/repo-file.js";
import { diskPaths, type PathSource, type RepoPaths } from "../fs/repo-paths.js";
import {
  type Contract,
  type ContractKind,
  emptyHeader,
  type Location,
  type Problem,
} from "../model/contract.js";
import type { EvidenceLoad } from "../model/evidence.js";
import { problem, sortProblems } from "../model/problems.js";
import { checkDrift } from "./drift.js";

/**
 * Read, parse and drift-check one contract. `relPath` is relative to `root`
 * with forward slashes; it is the path every problem reports. The work is
 * synchronous: a batch of calls (`Promise.all(paths.map(loadContract))`)
 * then holds one contract's bytes at a time, not every file at once.
 * A batch shares its `LoadOptions`.
 */
export async function loadContract(
  root: string,
  relPath: string,
  kind: ContractKind = kindOf(relPath) ?? "oracle-contract",
  opts: LoadOptions = {},
): Promise<Contract> {
  // Opened before the read, so the rest runs without a pause and a batch
  // still holds one contract's bytes at a time.
  const named =
    SPEC_KINDS.has(kind) || kind === "kiro-spec" || kind === "openspec-change"
      ? await (opts.paths ?? diskPaths(root)).open()
      : undefined;
  const baseTasks =
    named && opts.base && SPEC_KINDS.has(kind)
      ? await opts.base.read(tasksPathOf(kind, relPath))
      : undefined;
  const read = readRepoFile(root, relPath, MAX_CONTRACT_BYTES);
  if (read.kind !== "file") {
    return unread(kind, relPath, unreadProblem(relPath, start(relPath), "contract", read));
  }
  if (read.size > MAX_CONTRACT_BYTES) {
    return unread(kind, relPath, fileTooLarge(relPath, read.size));
  }
  const parsed = parseContract(kind, relPath, read.bytes);
  const contract =
    kind === "workphase-plan"
      ? withResearch(root, parsed)
      : named && parsed.kind === "kiro-spec"
        ? withKiroFiles(root, parsed, named)
        : named && SPEC_KINDS.has(parsed.kind)
          ? withSpecFiles(
              root,
              parsed,
              named,
              opts.dirs ?? dirListing(),
              opts.base && {
                history: opts.base.history === true,
                ...(baseTasks && { bytes: baseTasks }),
              },
            )
          : named && parsed.kind === "openspec-change"
            ? withChangeFolder(root, parsed, named, opts.dirs ?? dirListing())
            : parsed;
  contract.digest = planHash(read.bytes);
  const header = contract.header;
  // Drift needs a well-formed hash field; a file that did not even parse as JSON has none.
  // A foreign file is not a contract: it has no plan to drift from.
  const unparsed = contract.problems.some(
    (p) => p.code === "json-syntax" || p.code === "foreign-file",
  );
  if (header.kind === "plan-contract" && !unparsed) {
    const plan =
      header.planPath === undefined
        ? ({ kind: "missing" } as const)
        : readRepoFile(root, header.planPath, Number.MAX_SAFE_INTEGER);
    const found: Problem[] = [];
    if (plan.kind === "symlink" || plan.kind === "error") {
      // Never hashed through a link: the drift state stays unknown, the contract invalid.
      found.push(
        unreadProblem(header.planPath!, header.sourcePlanHashLocation, "plan", plan, relPath),
      );
    } else {
      const drift = checkDrift(header, plan.kind === "file" ? plan.bytes : undefined);
      contract.drift = drift.state;
      found.push(...drift.problems);
    }
    contract.problems = sortProblems([...contract.problems, ...found]);
  }
  // The behavioral checks' citations, read now with the contract: the run reads no file of its own.
  if (contract.criteria.some((k) => k.checks.some((c) => c.type === "behavioral"))) {
    contract.evidence = loadEvidence(root, relPath);
  }
  return contract;
}

/**
 * Load every contract, one after another, yielding to the event loop between
 * files: the work is synchronous, and without the yield a request started
 * before (the action's check run) would not even be sent until all are done.
 */
export async function loadContracts(
  root: string,
  relPaths: readonly string[],
  paths: PathSource = diskPaths(root),
  base?: BaseSide,
): Promise<Contract[]> {
  const out: Contract[] = [];
  for (const relPath of relPaths) {
    out.push(await loadContract(root, relPath, undefined, { paths, ...(base && { base }) }));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

/**
 * A workphase plan with its citations resolved against the research beside
 * it, read like the contract (never through a symlink). Deleting the research
 * a plan still cites leaves its citations unresolved: an error.
 */
function withResearch(root: string, plan: Contract): Contract {
  const path = researchPathOf(plan.path);
  const read = readRepoFile(root, path, MAX_CONTRACT_BYTES);
  if (read.kind === "file" && read.size <= MAX_CONTRACT_BYTES) {
    return linkResearch(plan, parseContract("workphase-research", path, read.bytes));
  }
  if (read.kind === "missing") return linkResearch(plan, undefined);
  // Unreadable research resolves nothing, and says why at the top of the plan.
  const at = start(plan.path);
  const why =
    read.kind === "file"
      ? { ...fileTooLarge(path, read.size), ...at, message: `${path} is over 1 MiB; not read` }
      : unreadProblem(path, at, "research", read);
  const linked = linkResearch(plan, undefined);
  return { ...linked, problems: sortProblems([...linked.problems, why]) };
}

const SPEC_KINDS = new Set<ContractKind>(["spec", "speckit-spec", "speckit-tasks"]);

/**
 * The side a change is judged against (the merge base): where the loader
 * reads a spec's tasks.md as it was, so a completion blocks only when the
 * change made it (`phantoms` in formats/spec/link.ts).
 */
export interface BaseSide {
  /** The file at the base; undefined when it is no regular file there. */
  read(path: string): Promise<Uint8Array | undefined>;
  /** `scope: all`: tasks done at the base are said too, as warnings. */
  history?: boolean;
}

/** The tasks.md a spec (or a task list itself) is judged with. */
function tasksPathOf(kind: ContractKind, path: string): string {
  return kind === "speckit-tasks" ? path : `${specDir(path)}tasks.md`;
}

/** What a batch of loads shares. */
export interface LoadOptions {
  /** The base the change is judged against; none: no completion blocks (nothing says the change made it). */
  base?: BaseSide;
  /** Where the paths a spec names are looked up (default: the working tree). */
  paths?: PathSource;
  /** The run's directory reads (discovery's, when it just listed the same tree). */
  dirs?: DirListing;
}

/**
 * A requirement spec with what lies beside it: its `tasks.md` (unless the
 * contract is that file), `plan.md`, `checklists/*.md`, and whether the
 * paths its map and done tasks name exist. Never read through a symlink.
 */
function withSpecFiles(
  root: string,
  contract: Contract,
  paths: RepoPaths,
  dirs: DirListing,
  base?: { history: boolean; bytes?: Uint8Array },
): Contract {
  const dir = specDir(contract.path);
  const readBeside = (path: string) => {
    const read = readRepoFile(root, path, MAX_CONTRACT_BYTES);
    return read.kind === "file" && read.size <= MAX_CONTRACT_BYTES ? read.bytes : undefined;
  };
  const files: SpecFiles = {
    checklists: [],
    exists: (p) => paths.exists(p),
    endingWith: (p) => paths.endingWith(p),
  };
  if (base) {
    // No tasks.md at the base: every task done at head is the change's.
    const before =
      base.bytes && readTasksFile(tasksPathOf(contract.kind, contract.path), base.bytes);
    files.base = { history: base.history, ...(before?.tasks && { tasks: before.tasks }) };
  }
  // One listing of the spec's directory says which companions to read (most specs have few).
  const beside =
    contract.kind === "speckit-tasks"
      ? new Set<string>()
      : new Set(dirs.entries(join(root, dir)).map((e) => e.name));
  if (beside.has("tasks.md")) {
    const tasksPath = `${dir}tasks.md`;
    const tasks = readBeside(tasksPath);
    if (tasks) {
      const read = readTasksFile(tasksPath, tasks);
      files.tasks = { ...(read.tasks && { list: read.tasks }), problems: read.problems };
    }
  }
  if (beside.has("plan.md")) {
    const plan = readBeside(`${dir}plan.md`);
    if (plan) files.plan = { path: `${dir}plan.md`, bytes: plan };
  }
  if (beside.has("checklists")) {
    for (const name of listMarkdown(root, `${dir}checklists`)) {
      const path = `${dir}checklists/${name}`;
      const bytes = readBeside(path);
      if (bytes) files.checklists.push({ path, bytes });
    }
  }
  return linkSpecFiles(contract, files);
}

/**
 * A Kiro spec with the design.md and tasks.md beside its requirements.md
 * (either may be missing: 3 of josfko's 11 specs have only requirements),
 * never read through a symlink, and whether its done tasks' paths exist.
 */
function withKiroFiles(root: string, contract: Contract, paths: RepoPaths): Contract {
  const files: KiroFiles = { exists: (p) => paths.exists(p) };
  const unreadable: Problem[] = [];
  for (const name of ["design", "tasks"] as const) {
    const path = `${kiroDir(contract.path)}${name}.md`;
    const read = readRepoFile(root, path, MAX_CONTRACT_BYTES);
    if (read.kind === "missing") continue;
    if (read.kind !== "file")
      unreadable.push(unreadProblem(path, start(contract.path), "contract", read));
    else if (read.size > MAX_CONTRACT_BYTES) unreadable.push(fileTooLarge(path, read.size));
    else files[name] = { path, bytes: read.bytes };
  }
  const linked = linkKiroFiles(contract, files);
  if (unreadable.length === 0) return linked;
  return { ...linked, problems: sortProblems([...linked.problems, ...unreadable]) };
}

/**
 * An OpenSpec change with its folder: `tasks.md`, `design.md`,
 * `.openspec.yaml`, every `specs/<capability>/spec.md` (dot-directories skipped, links
 * never followed, as OpenSpec's discovery), and the main spec of each
 * capability a delta names, the baseline the delta is read against.
 */
function withChangeFolder(
  root: string,
  contract: Contract,
  paths: RepoPaths,
  dirs: DirListing,
): Contract {
  const dir = specDir(contract.path);
  const place = openspecPlace(contract.path);
  const readBeside = (path: string) => {
    const read = readRepoFile(root, path, MAX_CONTRACT_BYTES);
    return read.kind === "file" && read.size <= MAX_CONTRACT_BYTES ? read.bytes : undefined;
  };
  const files: ChangeFiles = {
    deltas: [],
    mains: new Map(),
    skipSpecs: false,
    exists: (p) => paths.exists(p),
    files: [contract.path],
  };
  const beside = new Set(dirs.entries(join(root, dir)).map((e) => e.name));
  for (const name of ["tasks.md", "design.md", ".openspec.yaml"]) {
    if (!beside.has(name)) continue;
    const bytes = readBeside(dir + name);
    if (bytes === undefined) continue;
    files.files.push(dir + name);
    if (name === "tasks.md") files.tasks = { path: dir + name, bytes };
    if (name === ".openspec.yaml") {
      files.skipSpecs = /^skip_specs:[ \t]*true[ \t]*$/m.test(Buffer.from(bytes).toString("utf8"));
    }
  }
  const walk = (rel: string, depth: number) => {
    for (const e of dirs.entries(join(root, rel))) {
      if (e.name.startsWith(".")) continue;
      if (e.isDirectory()) walk(`${rel}/${e.name}`, depth + 1);
      else if (e.name === "spec.md" && (e.isFile() || e.isSymbolicLink())) {
        const path = `${rel}/spec.md`;
        if (depth === 0) {
          files.rootDelta = path;
          continue;
        }
        const bytes = readBeside(path);
        if (bytes === undefined) continue;
        const capability = rel.slice(`${dir}specs/`.length);
        files.files.push(path);
        files.deltas.push({ path, capability, bytes });
      }
    }
  };
  if (beside.has("specs")) walk(`${dir}specs`, 0);
  files.deltas.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const base = place.kind === "change" ? place.root : "";
  for (const d of files.deltas) {
    const path = `${base}openspec/specs/${d.capability}/spec.md`;
    const bytes = readBeside(path);
    if (bytes === undefined) continue;
    files.files.push(path);
    (files.mains as Map<string, { path: string; bytes: Uint8Array }>).set(d.capability, {
      path,
      bytes,
    });
  }
  return linkOpenspecChange(contract, files);
}

/** `*.md` directly in a repo-relative directory that is a real directory (not a link). */
function listMarkdown(root: string, rel: string): string[] {
  try {
    if (!lstatSync(join(root, rel)).isDirectory()) return [];
    return readdirSync(join(root, rel), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".md"))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Read and parse the evidence file paired with a contract (never through a symlink). */
export function loadEvidence(root: string, contractPath: string): EvidenceLoad {
  const path = phaseFiles(contractPath)?.evidence;
  if (path === undefined) return { kind: "none" };
  const read = readRepoFile(root, path, MAX_CONTRACT_BYTES);
  if (read.kind === "missing") return { kind: "missing", path };
  if (read.kind !== "file") {
    return {
      kind: "read",
      path,
      file: refused(unreadProblem(path, start(path), "evidence", read)),
    };
  }
  if (read.size > MAX_CONTRACT_BYTES) {
    return { kind: "read", path, file: refused(fileTooLarge(path, read.size)) };
  }
  return { kind: "read", path, file: parseEvidenceFile(path, read.bytes) };
}

/**
 * The problems of a plan contract's evidence file, for `validate`: a typo
 * there must fail validation, not wait for a behavioral check to run. A
 * missing evidence file is no problem (the checks that need it say so).
 */
export function evidenceProblems(root: string, contract: Contract): Problem[] {
  if (contract.kind !== "plan-contract") return [];
  // Read with the contract when it has behavioral checks; read here when it has none.
  const evidence = contract.evidence ?? loadEvidence(root, contract.path);
  return evidence.kind === "read" ? evidence.file.problems : [];
}

type Role = "contract" | "plan" | "evidence" | "research";

/**
 * The one problem for a file the gate could not (or would not) read. `of`
 * names the contract a plan belongs to, so the message says whose plan it is.
 */
export function unreadProblem(
  path: string,
  at: Location,
  role: Role,
  read: Exclude<RepoFileRead, { kind: "file" }>,
  of?: string,
): Problem {
  const whose = of === undefined ? "" : ` (the plan of ${of})`;
  switch (read.kind) {
    case "symlink":
      return problem(
        "symlinked-contract",
        at,
        read.link === path
          ? `${path}${whose} is a symlink to ${read.target}; a ${role} is never read through a symlink`
          : `${path}${whose} lies under the symlink ${read.link}, which leads to ${read.target}; a ${role} is never read through a symlink`,
        { hint: `commit the ${role} itself as a regular file at ${path}` },
      );
    case "missing":
      return problem("file-unreadable", at, `${path}${whose} does not exist`);
    case "error":
      return problem("file-unreadable", at, `${path}${whose} ${read.message}`);
  }
}

function refused(p: Problem): EvidenceFile {
  return { citations: [], problems: [p] };
}

function start(path: string): Location {
  return { path, line: 1, column: 1 };
}

function unread(kind: ContractKind, path: string, p: Problem): Contract {
  return { kind, path, header: emptyHeader(kind, path), criteria: [], problems: [p] };
}
