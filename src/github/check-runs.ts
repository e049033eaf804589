/**
 * Check runs: find, start (never twice for one external id), and complete
 * with annotations sent 50 at a time, a lost batch re-sent only when GitHub's
 * count shows it missing.
 */
import { type ApiContext, describeFailure } from "./api-context.js";
import { isRetryable, toGitHubApiError } from "./errors.js";
import {
  ANNOTATIONS_PER_REQUEST,
  fitAnnotationText,
  fitBytes,
  GITHUB_LIMITS,
  TRUNCATION_NOTE,
} from "./limits.js";
import type { Annotation, CheckRunOutput, CheckRunRef, FoundCheckRun, GitHubApi } from "./types.js";

export type CheckRuns = Pick<GitHubApi, "startCheckRun" | "findCheckRun" | "completeCheckRun">;

/** `a` as GitHub accepts it: lines from 1, the end not before the start, text within the limits. */
function postableAnnotation(a: Annotation): Annotation {
  const start = Math.max(1, Math.trunc(a.start_line));
  const out: Annotation = {
    path: a.path,
    start_line: start,
    end_line: Math.max(start, Math.trunc(a.end_line)),
    annotation_level: a.annotation_level,
    message: a.message,
  };
  if (a.title !== undefined) out.title = a.title;
  if (a.raw_details !== undefined) out.raw_details = a.raw_details;
  return fitAnnotationText(out);
}

export function createCheckRuns(ctx: ApiContext): CheckRuns {
  const { octokit, owner, repo, full, root, attempts, backoff, log, call } = ctx;
  /** Annotation count of runs this adapter created or completed (from GitHub's answers). */
  const annotationCounts = new Map<number, number>();

  async function findCheckRun(
    name: string,
    headSha: string,
    externalId: string,
  ): Promise<FoundCheckRun | undefined> {
    const runs = await call(
      `GET ${root}/commits/${headSha}/check-runs`,
      "checks",
      `commit ${headSha} in ${full}`,
      () =>
        octokit.paginate(octokit.rest.checks.listForRef, {
          owner,
          repo,
          ref: headSha,
          check_name: name,
          filter: "all",
          per_page: 100,
        }),
    );
    const mine = runs
      .filter((r) => r.name === name && r.external_id === externalId)
      .sort((a, b) => b.id - a.id)[0];
    if (!mine) return undefined;
    annotationCounts.set(mine.id, mine.output.annotations_count);
    return { id: mine.id, htmlUrl: mine.html_url ?? "", completed: mine.status === "completed" };
  }

  async function startCheckRun(args: {
    name: string;
    headSha: string;
    externalId: string;
    detailsUrl?: string;
  }): Promise<CheckRunRef> {
    const endpoint = `POST ${root}/check-runs`;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        await backoff(attempt - 1);
        // The failed create may have gone through before the answer was lost.
        const existing = await findCheckRun(args.name, args.headSha, args.externalId);
        if (existing) {
          log(`Check run "${args.name}" was created despite the error; using it (${existing.id}).`);
          return { id: existing.id, htmlUrl: existing.htmlUrl };
        }
      }
      try {
        const { data } = await octokit.rest.checks.create({
          owner,
          repo,
          name: args.name,
          head_sha: args.headSha,
          external_id: args.externalId,
          status: "in_progress",
          started_at: new Date().toISOString(),
          ...(args.detailsUrl ? { details_url: args.detailsUrl } : {}),
          // Retried here, after looking for the run, never blindly by the plugin.
          request: { retries: 0 },
        });
        annotationCounts.set(data.id, data.output.annotations_count);
        return { id: data.id, htmlUrl: data.html_url ?? "" };
      } catch (e) {
        if (!isRetryable(e)) {
          throw toGitHubApiError(e, endpoint, { area: "checks", repo: full });
        }
        lastError = e;
        log(`${endpoint} failed (${describeFailure(e)}); attempt ${attempt} of ${attempts}.`);
      }
    }
    const existing = await findCheckRun(args.name, args.headSha, args.externalId);
    if (existing) return { id: existing.id, htmlUrl: existing.htmlUrl };
    throw toGitHubApiError(lastError, endpoint, { area: "checks", repo: full, attempts });
  }

  async function annotationCountOf(id: number): Promise<number> {
    const { data } = await call(
      `GET ${root}/check-runs/${id}`,
      "checks",
      `check run ${id} in ${full}`,
      () => octokit.rest.checks.get({ owner, repo, check_run_id: id }),
    );
    return data.output.annotations_count;
  }

  async function completeCheckRun(
    id: number,
    args: { conclusion: "success" | "failure" | "neutral" | "cancelled"; output: CheckRunOutput },
  ): Promise<void> {
    const endpoint = `PATCH ${root}/check-runs/${id}`;
    const subject = `check run ${id} in ${full}`;
    const limit = GITHUB_LIMITS.checkRunOutput;
    const summary = fitBytes(args.output.summary, limit, TRUNCATION_NOTE);
    const text =
      args.output.text === undefined
        ? undefined
        : fitBytes(args.output.text, limit, TRUNCATION_NOTE);
    if (summary !== args.output.summary || text !== args.output.text) {
      log(`Check run output was cut to GitHub's ${limit}-byte limit.`);
    }
    const annotations = args.output.annotations.map(postableAnnotation);
    const batches: Annotation[][] = [];
    for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
      batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
    }
    if (batches.length === 0) batches.push([]);

    let count = annotationCounts.get(id);
    if (count === undefined && annotations.length > 0) count = await annotationCountOf(id);

    for (const [i, batch] of batches.entries()) {
      // Every update repeats title/summary/text: GitHub requires them with
      // annotations, and an output without `text` may clear it.
      const output = {
        title: args.output.title,
        summary,
        ...(text !== undefined ? { text } : {}),
        ...(batch.length > 0 ? { annotations: batch } : {}),
      };
      const params = {
        owner,
        repo,
        check_run_id: id,
        ...(i === 0
          ? {
              status: "completed" as const,
              conclusion: args.conclusion,
              completed_at: new Date().toISOString(),
            }
          : {}),
        output,
      };
      if (batch.length === 0) {
        // Idempotent: the retry plugin may repeat it.
        const { data } = await call(endpoint, "checks", subject, () =>
          octokit.rest.checks.update(params),
        );
        annotationCounts.set(id, data.output.annotations_count);
        continue;
      }
      // Annotations append: a repeat after a lost answer would duplicate them,
      // so a failed batch is only re-sent when GitHub's count shows it missing.
      const before = count ?? 0;
      let done = false;
      let lastError: unknown;
      for (let attempt = 1; attempt <= attempts && !done; attempt++) {
        if (attempt > 1) {
          await backoff(attempt - 1);
          const now = await annotationCountOf(id);
          if (now >= before + batch.length) {
            log(`Annotation batch ${i + 1} reached GitHub despite the error; not re-sending it.`);
            count = now;
            done = true;
            break;
          }
        }
        try {
          const { data } = await octokit.rest.checks.update({ ...params, request: { retries: 0 } });
          count = data.output.annotations_count;
          done = true;
        } catch (e) {
          if (!isRetryable(e))
            throw toGitHubApiError(e, endpoint, { area: "checks", repo: full, subject });
          lastError = e;
          log(`${endpoint} failed (${describeFailure(e)}); attempt ${attempt} of ${attempts}.`);
        }
      }
      if (!done) {
        const now = await annotationCountOf(id);
        if (now < before + batch.length) {
          throw toGitHubApiError(lastError, endpoint, {
            area: "checks",
            repo: full,
            subject,
            attempts,
          });
        }
        count = now;
      }
      annotationCounts.set(id, count ?? before + batch.length);
    }
  }

  return {
    startCheckRun,
    findCheckRun: (args) => findCheckRun(args.name, args.headSha, args.externalId),
    completeCheckRun,
  };
}
