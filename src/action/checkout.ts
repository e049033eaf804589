import type { Git } from "../git/index.js";

/**
 * Whether the checked-out HEAD is the PR head or GitHub's test merge commit for
 * it (second parent = head). Anything else means the contracts on disk are not
 * the PR's — e.g. the base branch that `pull_request_target` checks out.
 */
export async function verifyCheckout(
  git: Pick<Git, "resolveCommit" | "parents">,
  headSha: string,
): Promise<{ ok: true; head: string; merge: boolean } | { ok: false; head: string | undefined }> {
  const head = await git.resolveCommit("HEAD");
  if (head === headSha) return { ok: true, head, merge: false };
  // The parents from the raw commit object: actions/checkout's default is a depth-1
  // clone of the merge commit, where `HEAD^2` does not resolve (shallow commits have no parents).
  const parents = head ? await git.parents(head) : undefined;
  if (head && parents?.[1] === headSha) {
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
