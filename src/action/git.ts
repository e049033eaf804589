import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ChangedFile } from "../github/types.js";

const exec = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return (await exec("git", args, { cwd, maxBuffer: 256 * 1024 * 1024 })).stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * Whether the checked-out HEAD is the PR head or GitHub's test merge commit for
 * it (second parent = head). Anything else means the contracts on disk are not
 * the PR's — e.g. the base branch that `pull_request_target` checks out.
 */
export async function verifyCheckout(
  cwd: string,
  headSha: string,
): Promise<{ ok: true; head: string; merge: boolean } | { ok: false; head: string | undefined }> {
  const head = await git(cwd, ["rev-parse", "HEAD"]);
  if (head === headSha) return { ok: true, head, merge: false };
  // The parents from the raw commit object: actions/checkout's default is a depth-1
  // clone of the merge commit, where `HEAD^2` does not resolve (shallow commits have no parents).
  const raw = head ? await git(cwd, ["cat-file", "commit", head]) : undefined;
  const parents = [...(raw?.split("\n\n")[0] ?? "").matchAll(/^parent ([0-9a-f]+)$/gm)].map(
    (m) => m[1],
  );
  if (head && parents[1] === headSha) {
    return { ok: true, head, merge: true };
  }
  return { ok: false, head };
}

/** The message for a checkout that is not the PR's code, with the step to use. */
export function checkoutAdvice(
  event: string,
  prNumber: number,
  headSha: string,
  head: string | undefined,
): string {
  const ref =
    event === "workflow_dispatch" || event === "workflow_run"
      ? `refs/pull/\${{ inputs.pr-number }}/head   # PR #${prNumber}`
      : // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, shown to the user
        "${{ github.event.pull_request.head.sha }}";
  return [
    `The checked-out commit (${head ?? "none"}) is neither PR #${prNumber}'s head ${headSha} nor a merge commit of it,`,
    "so the contracts on disk are not the pull request's. Check out the PR head before this step:",
    "",
    "  - uses: actions/checkout@v4",
    "    with:",
    `      ref: ${ref}`,
    "      persist-credentials: false",
  ].join("\n");
}

/**
 * The merge base of `baseSha` and `headSha`, deepening a shallow clone in
 * bounded steps (fetching both from `origin`) until one exists; `undefined`
 * when there is none even then. Shared by the changed-file fallback and the
 * contract-integrity comparison.
 */
export async function mergeBaseDeepening(
  cwd: string,
  baseSha: string,
  headSha: string,
): Promise<string | undefined> {
  const mergeBase = () => git(cwd, ["merge-base", baseSha, headSha]);
  let found = await mergeBase();
  if (found === undefined) {
    await git(cwd, ["fetch", "--no-tags", "--quiet", "origin", baseSha, headSha]);
    for (const depth of [50, 200, 1000, 5000]) {
      found = await mergeBase();
      if (found !== undefined) break;
      await git(cwd, [
        "fetch",
        "--no-tags",
        "--quiet",
        `--deepen=${depth}`,
        "origin",
        baseSha,
        headSha,
      ]);
    }
    found ??= await mergeBase();
  }
  return found;
}

/**
 * Changed files by git when the API cannot list them all (over 3,000 files):
 * `git diff --name-status base...head`, deepening a shallow clone in bounded
 * steps until a merge base exists. Fails closed (throws) without one.
 */
export async function gitChangedFiles(
  cwd: string,
  baseSha: string,
  headSha: string,
): Promise<ChangedFile[]> {
  if ((await mergeBaseDeepening(cwd, baseSha, headSha)) === undefined) {
    throw new Error(
      `No merge base between ${baseSha} and ${headSha}, even after deepening the clone; ` +
        "cannot tell which contracts the PR changed. Use actions/checkout with fetch-depth: 0.",
    );
  }
  const out = await git(cwd, [
    "diff",
    "--name-status",
    "-z",
    "--find-renames",
    `${baseSha}...${headSha}`,
  ]);
  if (out === undefined) throw new Error(`git diff ${baseSha}...${headSha} failed`);
  return parseNameStatus(out);
}

/** `git diff --name-status -z` output → changed files (renames and copies with both paths). */
export function parseNameStatus(out: string): ChangedFile[] {
  const fields = out.split("\0").filter((f) => f !== "");
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++]!;
    const letter = code[0];
    if (letter === "R" || letter === "C") {
      const from = fields[i++]!;
      const to = fields[i++]!;
      files.push({ path: to, status: letter === "R" ? "renamed" : "copied", previousPath: from });
    } else {
      const path = fields[i++]!;
      files.push({
        path,
        status: letter === "A" ? "added" : letter === "D" ? "removed" : "modified",
      });
    }
  }
  return files;
}
