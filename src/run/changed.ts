import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { jsonKindOf } from "../formats/json-kinds.js";
import { kindOf } from "../formats/kinds.js";
import { phaseFiles } from "../formats/plan-contract/file-name.js";
import { specCompanions } from "../formats/spec/link.js";
import { researchPathOf } from "../formats/workphase/index.js";

const exec = promisify(execFile);

/**
 * Repo-relative paths that differ between `ref` and the working tree: tracked
 * changes by `git diff` (both sides of a rename) plus untracked files that are
 * not ignored. A contract is in scope when it, its plan or its evidence changed.
 */
export async function changedSince(root: string, ref: string): Promise<Set<string>> {
  const run = async (args: string[]) => {
    try {
      return (await exec("git", args, { cwd: root, maxBuffer: 64 * 1024 * 1024 })).stdout;
    } catch (e) {
      const stderr = String((e as { stderr?: string }).stderr ?? (e as Error).message).trim();
      throw new GitError(`git ${args.join(" ")} failed: ${stderr.split("\n")[0]}`);
    }
  };
  await run(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).catch(() => {
    throw new GitError(`--changed-since ${ref}: no such commit in ${root}`);
  });
  // --relative: paths relative to `root` (like ls-files below), even when root is a subdirectory.
  const diff = await run(["diff", "--name-status", "-z", "--no-renames", "--relative", ref, "--"]);
  const untracked = await run(["ls-files", "--others", "--exclude-standard", "-z"]);
  const out = new Set<string>();
  const fields = diff.split("\0").filter(Boolean);
  for (let i = 0; i + 1 < fields.length; i += 2) out.add(fields[i + 1]!);
  for (const f of untracked.split("\0").filter(Boolean)) out.add(f);
  return out;
}

export class GitError extends Error {}

/**
 * The files whose change puts a contract in scope: itself, its plan, its
 * evidence; for a workphase plan, the research its citations resolve against;
 * for a requirement spec, the tasks.md and plan.md beside it.
 */
export function companionsOf(contractPath: string): string[] {
  const kind = kindOf(contractPath);
  if (kind === "spec") return specCompanions(contractPath);
  if (jsonKindOf(contractPath) === "workphase-plan") {
    return [contractPath, researchPathOf(contractPath)];
  }
  const files = phaseFiles(contractPath);
  return files ? [contractPath, files.plan, files.evidence] : [contractPath];
}
