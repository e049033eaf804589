import { posix } from "node:path";
import { parse } from "yaml";
import type { Tree } from "./harness-resolve.js";

/** How a reached file is reached: by the run itself, or by a `uses:` in another reached file. */
export interface Reached {
  path: string;
  kind: "workflow" | "reusable workflow" | "local action" | "local action's file";
  /** The reached file whose `uses:` (or `runs:`) names it; absent for the invoking workflow. */
  via?: string;
}

export interface WorkflowReach {
  /** Every file the run reaches, the invoking workflow first, in the order found. */
  files: Reached[];
  /** Paths to read before the answer is complete (`Tree` semantics, as the harness resolver). */
  needs: string[];
}

/**
 * Everything of the repository's own that the invoking workflow runs, read
 * from one side's tree: the workflow itself, every local reusable workflow
 * a job `uses: ./.github/workflows/…`, every local action a step
 * `uses: ./dir` (its `action.yml`/`action.yaml`), transitively through
 * reusable workflows' jobs and composite actions' steps, and a local
 * JavaScript or Docker action's `runs.main`/`pre`/`post`/`image` files.
 * On `pull_request` GitHub runs the head's copy of each, so any of them can
 * narrow `contracts:` or turn the sandbox off without the named workflow
 * changing. Every local reference is followed, not only the path to the
 * gate's step: a job's outputs, `needs:` and environment reach the gate in
 * ways a static reading cannot rule out, so the whole file is the unit.
 * `uses: ./` (the repository's root action) is the gate itself in the
 * gate's own repository, and is not followed. A file that does not parse
 * is reached but names nothing further (GitHub would not run it either).
 * Pure: `tree` answers reads; what it has not read yet is in `needs`.
 */
export function reachWorkflows(entry: string, tree: Tree): WorkflowReach {
  const files: Reached[] = [];
  const needs: string[] = [];
  const seen = new Set<string>();
  const queue: Reached[] = [{ path: entry, kind: "workflow" }];
  while (queue.length > 0) {
    const r = queue.shift() as Reached;
    if (seen.has(r.path)) continue;
    seen.add(r.path);
    files.push(r);
    const text = tree(r.path);
    if (text === undefined) {
      needs.push(r.path);
      continue;
    }
    if (text === null || r.kind === "local action's file") continue;
    for (const next of referencesOf(r, text)) queue.push(next);
  }
  return { files, needs };
}

/** The local files one workflow or action file names. Pure. */
export function referencesOf(from: Reached, text: string): Reached[] {
  let doc: unknown;
  try {
    doc = parse(text, { uniqueKeys: false, maxAliasCount: 100 });
  } catch {
    return [];
  }
  if (!isRecord(doc)) return [];
  const out: Reached[] = [];
  const uses = (value: unknown) => {
    if (typeof value !== "string") return;
    const local = localPath(value);
    if (local === undefined) return;
    if (/^\.github\/workflows\/[^/]+\.ya?ml$/.test(local))
      out.push({ path: local, kind: "reusable workflow", via: from.path });
    else
      for (const name of ["action.yml", "action.yaml"])
        out.push({ path: posix.join(local, name), kind: "local action", via: from.path });
  };
  const steps = (list: unknown) => {
    if (Array.isArray(list)) for (const s of list) if (isRecord(s)) uses(s.uses);
  };
  if (isRecord(doc.jobs)) {
    for (const job of Object.values(doc.jobs)) {
      if (!isRecord(job)) continue;
      uses(job.uses);
      steps(job.steps);
    }
  }
  if (isRecord(doc.runs)) {
    steps(doc.runs.steps);
    const dir = posix.dirname(from.path);
    for (const key of ["main", "pre", "post", "image"]) {
      const v = doc.runs[key];
      if (typeof v !== "string" || v.startsWith("docker://")) continue;
      const p = posix.normalize(posix.join(dir, v));
      if (!p.startsWith("../")) out.push({ path: p, kind: "local action's file", via: from.path });
    }
  }
  return out;
}

/**
 * `./dir` → `dir` (normalized, repository-relative); a remote reference
 * (`owner/repo@ref`, `docker://…`), the root action `./` or a path leaving
 * the repository → undefined.
 */
function localPath(uses: string): string | undefined {
  const v = uses.trim();
  if (!v.startsWith("./")) return undefined;
  const p = posix.normalize(v.replace(/@.*$/, "")).replace(/\/+$/, "");
  if (p === "." || p === "" || p.startsWith("../")) return undefined;
  return p;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
