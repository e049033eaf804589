/** Pull requests, their files and reviews, and a login's permission on the repository. */
import type { ApiContext } from "./api-context.js";
import { statusOf, toGitHubApiError } from "./errors.js";
import type { ChangedFile, GitHubApi } from "./types.js";

export type Pulls = Pick<
  GitHubApi,
  "getPull" | "listOpenPulls" | "listPullFiles" | "listReviews" | "getPermission"
>;

export function createPulls(ctx: ApiContext): Pulls {
  const { octokit, owner, repo, full, root, call } = ctx;
  return {
    async getPull(number) {
      const { data } = await call(
        `GET ${root}/pulls/${number}`,
        "pulls",
        `pull request #${number} in ${full}`,
        () => octokit.rest.pulls.get({ owner, repo, pull_number: number }),
      );
      // The schema says `head.repo` is always an object; GitHub sends null once the fork is deleted.
      const headRepo = (data.head.repo as { full_name: string } | null) ?? null;
      return {
        number: data.number,
        headSha: data.head.sha,
        headRef: data.head.ref,
        baseSha: data.base.sha,
        baseRef: data.base.ref,
        headRepo: headRepo ? headRepo.full_name : null,
        baseRepo: data.base.repo.full_name,
        changedFiles: data.changed_files,
        state: data.state,
        htmlUrl: data.html_url,
        author: data.user.login,
      };
    },

    async listOpenPulls() {
      const pulls = await call(
        `GET ${root}/pulls?state=open`,
        "pulls",
        `the open pull requests of ${full}`,
        () =>
          octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: "open", per_page: 100 }),
      );
      return pulls.map((p) => ({
        number: p.number,
        headSha: p.head.sha,
        // As in getPull: the schema says an object, GitHub sends null once the fork is deleted.
        headRepo: (p.head.repo as { full_name: string } | null)?.full_name ?? null,
        headRef: p.head.ref,
        baseRef: p.base.ref,
        baseRepo: p.base.repo.full_name,
        htmlUrl: p.html_url,
      }));
    },

    async listReviews(number) {
      const reviews = await call(
        `GET ${root}/pulls/${number}/reviews`,
        "reviews",
        `pull request #${number} in ${full}`,
        () =>
          octokit.paginate(octokit.rest.pulls.listReviews, {
            owner,
            repo,
            pull_number: number,
            per_page: 100,
          }),
      );
      return reviews.map((r) => ({
        id: r.id,
        login: r.user?.login ?? null,
        state: r.state,
        commitId: r.commit_id ?? null,
        submittedAt: r.submitted_at ?? null,
        htmlUrl: r.html_url,
      }));
    },

    async getPermission(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
          owner,
          repo,
          username: login,
        });
        const p = data.permission;
        return p === "admin" || p === "write" || p === "read" ? p : "none";
      } catch (e) {
        // 404: not a collaborator (or no such user), which is no permission at all.
        if (statusOf(e) === 404) return "none";
        throw toGitHubApiError(e, `GET ${root}/collaborators/${login}/permission`, {
          area: "collaborators",
          repo: full,
          subject: `the permission of ${login} in ${full}`,
        });
      }
    },

    async listPullFiles(number) {
      const files = await call(
        `GET ${root}/pulls/${number}/files`,
        "pulls",
        `pull request #${number} in ${full}`,
        () =>
          octokit.paginate(octokit.rest.pulls.listFiles, {
            owner,
            repo,
            pull_number: number,
            per_page: 100,
          }),
      );
      return files.map((f) => {
        const out: ChangedFile = { path: f.filename, status: f.status };
        if (
          f.previous_filename !== undefined &&
          (f.status === "renamed" || f.status === "copied")
        ) {
          out.previousPath = f.previous_filename;
        }
        return out;
      });
    },
  };
}
