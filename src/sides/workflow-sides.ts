import type { Git } from "../git/index.js";
import type { Finding } from "../integrity/types.js";
import { reachedWorkflowFindings } from "../integrity/workflow-diff.js";
import { type Reached, reachWorkflows } from "../integrity/workflow-reach.js";

/** A workflow or action file is read whole up to this size. */
const WORKFLOW_LIMIT = 1024 * 1024;
/** Rounds of reads: each follows one more level of `uses: ./…` (GitHub itself nests reusable workflows 4 deep). */
const MAX_ROUNDS = 12;

/**
 * The invoking workflow and every local reusable workflow and local action it
 * reaches (`reachWorkflows`), resolved at the merge base and at the PR's
 * head, each reached file compared whole (`gate-config-changed`). Throws
 * `GitReadError` when either commit cannot be read (fail closed).
 */
export async function workflowChanges(
  git: Git,
  entry: string,
  base: string,
  head: string,
): Promise<Finding[]> {
  const atBase = await reachAt(git, base, entry);
  const atHead = await reachAt(git, head, entry);
  const union = new Map<string, Reached>();
  for (const r of [...atBase.files, ...atHead.files]) if (!union.has(r.path)) union.set(r.path, r);
  // A file reached on one side only is read on the other too: added or deleted is a change.
  const baseTexts = await fill(git, base, atBase.texts, [...union.keys()]);
  const headTexts = await fill(git, head, atHead.texts, [...union.keys()]);
  return reachedWorkflowFindings(
    [...union.values()],
    (p) => baseTexts.get(p),
    (p) => headTexts.get(p),
  );
}

async function reachAt(git: Git, commit: string, entry: string) {
  const texts = new Map<string, string | null>();
  let reach = reachWorkflows(entry, (p) => texts.get(p));
  for (let round = 0; round < MAX_ROUNDS && reach.needs.length > 0; round++) {
    await fill(git, commit, texts, reach.needs);
    reach = reachWorkflows(entry, (p) => texts.get(p));
  }
  return { files: reach.files, texts };
}

/** Reads the paths `texts` lacks at `commit` into it (`null`: no regular file there). */
async function fill(
  git: Git,
  commit: string,
  texts: Map<string, string | null>,
  paths: readonly string[],
): Promise<Map<string, string | null>> {
  const missing = paths.filter((p) => !texts.has(p));
  if (missing.length === 0) return texts;
  const reads = await git.readAt(
    commit,
    missing.map((path) => ({ path, limit: WORKFLOW_LIMIT })),
  );
  for (const p of missing) {
    const r = reads.get(p);
    texts.set(p, r?.kind === "file" ? Buffer.from(r.bytes).toString("utf8") : null);
  }
  return texts;
}
