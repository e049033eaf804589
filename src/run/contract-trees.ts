import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import type { Git } from "../git/index.js";
import type { ProcessRunner } from "../process/run-process.js";
import {
  openSandbox,
  privateTreeFits,
  type Sandbox,
  type SandboxOptions,
} from "../sandbox/index.js";
import { encodeLayer, type TreeLayer } from "../sandbox/tree-layer.js";

/**
 * Where one contract's commands run (issue 32, docs/security.md "What a
 * check sees"): the head commit as committed, plus what that contract's own
 * checks write, thrown away when its last check has ended. No contract sees
 * another's writes, and none reaches the checkout.
 */
export interface ContractTree {
  /** Runs the contract's commands. */
  run: ProcessRunner;
  /** The tree's root as its commands see it: their cwd is confined below it. */
  root: string;
  /** Ends every process of the tree and removes what it wrote. */
  close(): void;
}

/** Opens one private tree per contract; `isolation` says, in a sentence's words, what holds. */
export interface ContractTrees {
  open(contract: string): Promise<ContractTree>;
  isolation: string;
  /** Removes what the trees left (the head layer file). */
  close(): void;
  /** Settles once every tree's processes have ended (each host exited), after each tree closed. */
  ended(): Promise<void>;
}

/** Isolation sentences, as the report shows them after "Each contract's commands ran in". */
export const ISOLATION = {
  overlay:
    "a private tree of its own: the checkout as a read-only lower layer with the head commit laid on top, every write in an upper layer thrown away with the contract",
  copy: "a private copy of the head commit (no boundary: a copy per contract, its ignored entries such as node_modules linked and shared; a command can still reach the checkout by its absolute path)",
} as const;

/** Without a commit (a plain folder) there is nothing to lay: commands run where the files are. */
export const FOLDER_ITSELF =
  "the folder itself (no commit to judge: a plain folder, or a local run of the working tree)";

/** How long a closed run waits for its hosts to exit before it says they did not. */
export const TEARDOWN_MS = 10_000;

/**
 * After the run's sandbox and trees were closed: whether every process they
 * started has ended (each host exited, its pid namespace with it) within
 * `withinMs`. A shard leg writes its report only then: a process a check
 * left behind must not outlive the checks and rewrite what the merge reads.
 */
export async function torndown(
  sandbox: { ended?: () => Promise<void> },
  trees: ContractTrees | undefined,
  withinMs = TEARDOWN_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), withinMs);
  });
  const all = Promise.all([sandbox.ended?.(), trees?.ended()]).then(() => true as const);
  try {
    return await Promise.race([all, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Where a run's commands ran, weakest first: the sentence no gate wrote (a
 * report this version did not produce, or one rewritten), the folder itself,
 * a private copy, a private tree. The merge of shard legs shows the weakest.
 */
const ISOLATION_ORDER: readonly string[] = [FOLDER_ITSELF, ISOLATION.copy, ISOLATION.overlay];

/** What a leg's report says about its trees, as the merge shows it when no gate wrote those words. */
export const TREES_UNNAMED =
  "a tree its shard's report did not name (a report from another gate version, or rewritten after its run): nothing is known to have kept contracts apart";

/** The weakest of several reports' trees: an absent or unknown sentence is weaker than any known one. */
export function weakestTrees(trees: readonly (string | undefined)[]): string | undefined {
  if (trees.length === 0) return undefined;
  const rank = (t: string | undefined) => (t === undefined ? -1 : ISOLATION_ORDER.indexOf(t));
  // Not a sort: `sort` puts an undefined entry last without ranking it.
  const weakest = trees.reduce((w, t) => (rank(t) < rank(w) ? t : w));
  return rank(weakest) < 0 ? TREES_UNNAMED : weakest;
}

/**
 * Every tracked path laid to its head-commit content, as one layer over the
 * checkout: files the working tree changed or deleted restored from the
 * commit, paths it added (untracked, not ignored) left out. Ignored entries
 * are not tracked and stay as they are. One diff (through a private index)
 * and one batched blob read.
 */
export async function headLayer(git: Git, sha: string, root: string): Promise<TreeLayer> {
  const changes = await git.worktreeChanges(sha, { renames: false });
  if (changes.length === 0) return { files: [], hide: [], links: [] };
  const atHead = new Map((await git.filesAt(sha)).map((e) => [e.path, e]));
  const files: { path: string; mode: number; object: string }[] = [];
  const links: { path: string; object: string }[] = [];
  const hide: string[] = [];
  // A path can change twice (deleted from the index, yet on disk: untracked): laid once, as committed.
  for (const path of new Set(changes.map((c) => c.path))) {
    const e = atHead.get(path);
    if (e === undefined) hide.push(path);
    else if (e.mode === "100644" || e.mode === "100755")
      files.push({ path, object: e.object, mode: e.mode === "100755" ? 0o755 : 0o644 });
    else if (e.mode === "120000") links.push({ path, object: e.object });
    // A submodule (160000) is a checkout of its own: left as it is.
  }
  const read = await git.readObjects([...files, ...links].map((f) => f.object));
  const bytes = (i: number) => {
    const [from, to] = read.spans[i]!;
    return read.data.subarray(from, to);
  };
  return {
    files: files.map((f, i) => ({ path: f.path, mode: f.mode, bytes: bytes(i) })),
    hide: hide.sort(),
    // A layer's links are absolute: a relative target resolves from where the link sits.
    links: links.map((l, i) => {
      const target = Buffer.from(bytes(files.length + i)).toString("utf8");
      return { path: l.path, target: posix.resolve(root, posix.dirname(l.path), target) };
    }),
  };
}

export interface TreesInput {
  git: Git;
  /** The head commit: what every tree shows. */
  sha: string;
  /** The checkout (a real path): a private tree's lower layer, a copy's source. */
  root: string;
  /** The run's sandbox: whether a boundary held, and (without one) the runner copies use. */
  sandbox: Sandbox;
  /** How the run's sandbox was asked for: each contract's host is asked the same way. */
  options: Omit<SandboxOptions, "root" | "privateTree">;
  /** Where the trees' files go; default the system's temp directory. */
  parentDir?: string;
}

/**
 * The trees of one run. With a boundary (and a checkout path an overlay can
 * name), each contract gets a sandbox host of its own over a private tree:
 * the head layer, written once, laid by each host into its own upper. Such a
 * host is asked for as `required`: once the run had a boundary, no contract
 * runs without one. Without a boundary (`sandbox: off`, or `auto` with no
 * user namespaces and no sudo), a private copy of the head commit per
 * contract, run through the run's own (unsandboxed) runner.
 */
export async function openContractTrees(input: TreesInput): Promise<ContractTrees> {
  const layer = await headLayer(input.git, input.sha, input.root);
  const dir = mkdtempSync(join(input.parentDir ?? tmpdir(), "contract-gate-trees-"));
  const close = () => rmSync(dir, { recursive: true, force: true });
  const boundary = input.sandbox.info.mechanism !== "none" && privateTreeFits(input.root);
  if (boundary) {
    const layerFile = join(dir, "head.layer");
    writeFileSync(layerFile, encodeLayer(layer), { mode: 0o600 });
    const hosts: Promise<void>[] = [];
    return {
      isolation: ISOLATION.overlay,
      close,
      ended: () => Promise.all(hosts).then(() => {}),
      async open() {
        const sandbox = await openSandbox({
          ...input.options,
          mode: "required",
          root: input.root,
          privateTree: { layer: layerFile },
        });
        return {
          run: sandbox.run,
          root: input.root,
          close: () => {
            sandbox.close();
            if (sandbox.ended) hosts.push(sandbox.ended());
          },
        };
      },
    };
  }
  const listing = await input.git.filesAt(input.sha);
  const ignored = (
    await input.git.lsFiles(["--others", "--ignored", "--exclude-standard", "--directory"])
  ).map((p) => p.replace(/\/$/, ""));
  let n = 0;
  return {
    isolation: ISOLATION.copy,
    close,
    // Copies run through the run's own runner: the run's sandbox says when its processes ended.
    ended: async () => {},
    async open() {
      const tree = join(dir, `c${++n}`);
      copyHead(input.root, tree, listing, layer, ignored);
      return {
        run: input.sandbox.run,
        root: tree,
        close: () => rmSync(tree, { recursive: true, force: true }),
      };
    },
  };
}

/**
 * Writes the head commit at `dest`: each tracked file copied from the
 * checkout where the working tree holds the committed bytes, from the layer
 * where it does not; links as committed; ignored entries linked to the
 * checkout's (shared: what it installed serves every copy).
 */
function copyHead(
  checkout: string,
  dest: string,
  listing: readonly { path: string; mode: string }[],
  layer: TreeLayer,
  ignored: readonly string[],
): void {
  const laid = new Map(layer.files.map((f) => [f.path, f]));
  const linked = new Map((layer.links ?? []).map((l) => [l.path, l.target]));
  const made = new Set<string>();
  const dirOf = (p: string) => {
    const d = dirname(p);
    if (!made.has(d)) {
      mkdirSync(d, { recursive: true });
      made.add(d);
    }
  };
  mkdirSync(dest, { recursive: true });
  for (const e of listing) {
    const to = join(dest, e.path);
    dirOf(to);
    const f = laid.get(e.path);
    if (f !== undefined) writeFileSync(to, f.bytes, { mode: f.mode });
    else if (e.mode === "120000") {
      const target = linked.get(e.path);
      symlinkSync(target ?? readlinkSync(join(checkout, e.path)), to);
    } else if (e.mode === "160000") symlinkSync(join(checkout, e.path), to);
    else {
      copyFileSync(join(checkout, e.path), to);
      if (e.mode === "100755") chmodSync(to, 0o755);
    }
  }
  for (const rel of ignored) {
    const to = join(dest, rel);
    dirOf(to);
    symlinkSync(join(checkout, rel), to);
  }
}
