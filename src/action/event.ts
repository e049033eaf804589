import type { ActionSettings } from "./inputs.js";
import { prNumberAdvice, readTriggeringRun, type TriggeringRun } from "./workflow-run.js";

/** The workflow run's facts the action needs, read once from the runner's environment. */
export interface RunnerEnv {
  eventName: string;
  eventPath: string | undefined;
  /** `owner/name` of the repository running the workflow (the base repository). */
  repository: string;
  sha: string;
  runId: string;
  runAttempt: string;
  serverUrl: string;
  apiUrl: string;
  runnerTemp: string | undefined;
  workspace: string | undefined;
  /** `GITHUB_WORKFLOW_REF`: `owner/repo/.github/workflows/x.yml@ref`, the workflow running the gate. */
  workflowRef?: string | undefined;
}

export function readRunnerEnv(env: NodeJS.ProcessEnv): RunnerEnv {
  return {
    eventName: env.GITHUB_EVENT_NAME ?? "",
    eventPath: env.GITHUB_EVENT_PATH,
    repository: env.GITHUB_REPOSITORY ?? "",
    sha: env.GITHUB_SHA ?? "",
    runId: env.GITHUB_RUN_ID ?? "0",
    runAttempt: env.GITHUB_RUN_ATTEMPT ?? "1",
    serverUrl: env.GITHUB_SERVER_URL ?? "https://github.com",
    apiUrl: env.GITHUB_API_URL ?? "https://api.github.com",
    runnerTemp: env.RUNNER_TEMP,
    workspace: env.GITHUB_WORKSPACE,
    workflowRef: env.GITHUB_WORKFLOW_REF,
  };
}

/** What to gate: a pull request (its head and base), or every contract at a commit. */
export type Target =
  | {
      kind: "pull-request";
      number: number;
      /** Known from the payload; `workflow_dispatch` learns them from pulls.get. */
      headSha?: string;
      baseSha?: string;
      headRepo?: string | null;
      baseRepo?: string;
      /** The head branch's name (`head.ref`): contracts whose header binds them to it are in scope. */
      headRef?: string;
      /** `changed_files` when the payload has it (compared with the API's capped file list). */
      changedFiles?: number;
      /** The job holds a write token and secrets (pull_request_target, workflow_dispatch). */
      privileged: boolean;
      event: string;
      /** `workflow_run`: the run that triggered this one; pr-number must be the PR it built. */
      triggeringRun?: TriggeringRun;
    }
  | {
      kind: "commit";
      sha: string;
      event: string;
      /**
       * `merge_group`: the queue's base commit. Only the contracts changed between it and
       * `sha` are gated (scope `changed`), found with git: a queued commit has no PR to ask.
       */
      changedSince?: string;
    };

export const SUPPORTED_EVENTS = [
  "pull_request",
  "pull_request_review",
  "pull_request_target",
  "workflow_dispatch",
  "workflow_run",
  "push",
  "merge_group",
];

interface PullPayload {
  number?: number;
  pull_request?: {
    number?: number;
    head?: { sha?: string; ref?: string; repo?: { full_name?: string } | null };
    base?: { sha?: string; repo?: { full_name?: string } };
    changed_files?: number;
  };
  after?: string;
  action?: string;
  merge_group?: { base_sha?: unknown; head_sha?: unknown };
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * Decide what this run gates from the event. Pure: the payload is passed in.
 * Throws an Error with a user-facing message for unsupported events.
 */
export function resolveTarget(
  runner: RunnerEnv,
  payload: unknown,
  settings: Pick<ActionSettings, "prNumber">,
): Target {
  const p = (payload ?? {}) as PullPayload;
  switch (runner.eventName) {
    case "pull_request":
    // A review submitted or dismissed: re-gate, so an approval acknowledges contract changes.
    case "pull_request_review":
    case "pull_request_target": {
      const pr = p.pull_request;
      const number = pr?.number ?? p.number;
      if (!pr || !number)
        throw new Error(`The ${runner.eventName} event payload has no pull_request.`);
      return {
        kind: "pull-request",
        number,
        ...(pr.head?.sha ? { headSha: pr.head.sha } : {}),
        ...(pr.base?.sha ? { baseSha: pr.base.sha } : {}),
        ...(typeof pr.head?.ref === "string" ? { headRef: pr.head.ref } : {}),
        headRepo: pr.head?.repo?.full_name ?? null,
        baseRepo: pr.base?.repo?.full_name ?? runner.repository,
        ...(typeof pr.changed_files === "number" ? { changedFiles: pr.changed_files } : {}),
        // pull_request_target runs the base branch's workflow with a write token and secrets.
        privileged: runner.eventName === "pull_request_target",
        event: runner.eventName,
      };
    }
    case "workflow_run": {
      // The second stage of the fork setup (docs/forks.md): it learns the PR from pr-number.
      const triggeringRun = readTriggeringRun(payload);
      if (settings.prNumber === undefined) throw new Error(prNumberAdvice(""));
      // The repository's own workflow, with its token and secrets.
      return {
        kind: "pull-request",
        number: settings.prNumber,
        privileged: true,
        event: runner.eventName,
        triggeringRun,
      };
    }
    case "workflow_dispatch":
      if (settings.prNumber !== undefined) {
        // The repository's own workflow, with its token and secrets.
        return {
          kind: "pull-request",
          number: settings.prNumber,
          privileged: true,
          event: runner.eventName,
        };
      }
      return { kind: "commit", sha: runner.sha, event: runner.eventName };
    case "push":
      return {
        kind: "commit",
        sha: p.after && !/^0+$/.test(p.after) ? p.after : runner.sha,
        event: runner.eventName,
      };
    case "merge_group": {
      // Only checks_requested asks for checks; `destroyed` (if a workflow subscribes) has nothing to gate.
      if (p.action !== undefined && p.action !== "checks_requested") {
        throw new Error(
          `contract-gate gates merge_group checks_requested, not '${p.action}': remove that type from the workflow's merge_group trigger.`,
        );
      }
      const base = p.merge_group?.base_sha;
      const head = p.merge_group?.head_sha;
      // Fail closed: without both commits there is no telling which contracts the queue changes.
      if (
        typeof base !== "string" ||
        !SHA.test(base) ||
        typeof head !== "string" ||
        !SHA.test(head)
      ) {
        throw new Error("The merge_group event payload has no merge_group.base_sha and head_sha.");
      }
      return { kind: "commit", sha: head, changedSince: base, event: runner.eventName };
    }
    default:
      throw new Error(
        `contract-gate does not support the '${runner.eventName || "(unknown)"}' event. ` +
          `Supported: ${SUPPORTED_EVENTS.join(", ")}. To re-run the gate for a pull request, ` +
          "use workflow_dispatch with the pr-number input (check_run.rerequested cannot reach a token-created check run).",
      );
  }
}

/**
 * Code under test is untrusted when it comes from another repository and the
 * job holds privileges that plain `pull_request` from a fork never gets.
 */
export function isUntrusted(target: Target): boolean {
  if (target.kind !== "pull-request" || !target.privileged) return false;
  // Unknown head repository: fail closed.
  return target.headRepo == null || target.headRepo !== target.baseRepo;
}
