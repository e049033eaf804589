import type { Check } from "../model/contract.js";
import { describeResolved } from "./files/confine.js";
import { resultsFrom } from "./files/results.js";
import type { Executor } from "./types.js";

type FileExistsCheck = Extract<Check, { type: "file-exists" }>;

/**
 * `file-exists`: the path is a regular file of the tree the run reads (the
 * head commit where the gate judges one: `ctx.tree`) inside the repository (symlinks
 * followed only while they stay inside), and contains `mustContain` when
 * given. A missing file is the criterion unmet; a path that could not be
 * examined, or that leads out of the repository, is an execution error.
 */
export const runFileExists: Executor<FileExistsCheck> = async (check, ctx) => {
  const results = resultsFrom();
  const resolved = await ctx.tree.resolve(check.path);
  switch (resolved.kind) {
    case "outside":
    case "error":
      return results.executionError(describeResolved(resolved));
    case "missing":
    case "directory":
    case "other":
      return results.unmet(describeResolved(resolved));
    case "file":
      break;
  }
  const needle = check.mustContain;
  if (needle === undefined) return results.pass(`${resolved.rel} exists`);
  const found = await ctx.files.contains(resolved.abs, needle);
  const quoted = JSON.stringify(needle);
  if (!found.ok) return results.executionError(`could not read ${resolved.rel}: ${found.error}`);
  if (!found.value) return results.unmet(`${resolved.rel} does not contain ${quoted}`);
  return results.pass(`${resolved.rel} exists and contains ${quoted}`);
};
