import type { GitHubApi, RepoRef } from "../github/types.js";

/** What the action needs from the runner; the only implementation over @actions/core is core-io.ts. */
export interface ActionIO {
  getInput(name: string): string;
  setOutput(name: string, value: string | number): void;
  setFailed(message: string): void;
  info(message: string): void;
  /** The debug log, shown when the run has step debugging on. */
  debug?(message: string): void;
  /** A notice annotation; plain info where the runner has none. */
  notice?(message: string): void;
  warning(message: string): void;
  /** An error annotation through workflow commands (the fork fallback). */
  errorAt(message: string, at: { file: string; line: number; title: string }): void;
  setSecret(value: string): void;
  writeSummary(markdown: string): Promise<void>;
  /** Log text that came from contracts or command output, so it cannot start workflow commands. */
  untrusted(text: string): void;
  /** State for the post step (see post.ts). */
  saveState(name: string, value: string): void;
}

/** How the action gets its GitHub API (a fake in tests). */
export type GitHubFactory = (token: string, repo: RepoRef, baseUrl: string) => GitHubApi;

/**
 * A stage's decision to end the run before a verdict: `failure` fails the
 * step with `message`; `notice` stands down (the step passes, nothing is posted).
 */
export class StopRun extends Error {
  constructor(
    message: string,
    readonly as: "failure" | "notice" = "failure",
  ) {
    super(message);
  }
}
