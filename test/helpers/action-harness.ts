/**
 * End-to-end harness for the bundled action (dist/index.js): a real temp git
 * repository, the local GitHub stand-in holding the matching repository and
 * pull request, an event payload from @octokit/webhooks-examples, and
 * `node dist/index.js` run as a child process with the environment the
 * Actions runner gives a JavaScript action (INPUT_* with action.yml's
 * defaults, GITHUB_* variables, empty GITHUB_OUTPUT / GITHUB_STEP_SUMMARY
 * files). Temp directories are removed after the test file.
 */
import {
  type ChildProcessByStdio,
  type ChildProcessWithoutNullStreams,
  execFile,
  spawn,
} from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, type ExpectStatic } from "vitest";
import { parse as parseYaml } from "yaml";
import { examplePayload } from "../github/payloads.js";
import {
  ACTIONS_LOGIN,
  ACTIONS_TOKEN,
  type PullFileState,
  type StandIn,
  startStandIn,
  type TokenIdentity,
} from "../github/standin.js";

const exec = promisify(execFile);

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DIST = join(ROOT, "dist", "index.js");
export const OWNER = "acme";
export const NAME = "widgets";
export const REPO = `${OWNER}/${NAME}`;
export const FORK = `fork-owner/${NAME}`;
export const PR_NUMBER = 7;

// ------------------------------------------------------------------ temp dirs

const made: string[] = [];
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp directory removed after the test file (safe with concurrent tests). */
export function scratch(prefix = "cg-action-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

// ------------------------------------------------------------------ git

/** path → content; `null` deletes the file; `{ symlink }` makes a symbolic link to that target. */
export type Files = Record<string, string | null | { symlink: string }>;

export interface GitRepo {
  dir: string;
  /** The base branch tip (`main`). */
  base: string;
  /** The PR head (`feature`). */
  head: string;
  /** GitHub's test merge commit (parents: base, head), when asked for. */
  merge?: string;
  /** The PR's changed files as the API lists them (`git diff base...head`). */
  files: PullFileState[];
  git(...args: string[]): Promise<string>;
  checkout(sha: string): Promise<void>;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

function writeFiles(root: string, files: Files): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    if (content === null) {
      rmSync(abs, { force: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof content === "string") writeFileSync(abs, content);
    else {
      // A link may replace a file of the base commit.
      rmSync(abs, { force: true });
      symlinkSync(content.symlink, abs);
    }
  }
}

/**
 * A repository with a base commit on `main` and a head commit on `feature`
 * (base + `head` changes); with `merge`, also GitHub's merge commit of the
 * head into main. Checked out (detached) at `checkout` (default: head).
 */
export async function makeRepo(opts: {
  base: Files;
  head: Files;
  merge?: boolean;
  checkout?: "base" | "head" | "merge";
}): Promise<GitRepo> {
  const dir = scratch("cg-repo-");
  const git = async (...args: string[]) =>
    (await exec("git", args, { cwd: dir, env: GIT_ENV, maxBuffer: 64 << 20 })).stdout.trim();
  await git("init", "-q", "-b", "main");
  writeFiles(dir, opts.base);
  await git("add", "-A");
  await git("commit", "-q", "--allow-empty", "-m", "base");
  const base = await git("rev-parse", "HEAD");
  await git("checkout", "-q", "-b", "feature");
  writeFiles(dir, opts.head);
  await git("add", "-A");
  await git("commit", "-q", "--allow-empty", "-m", "head");
  const head = await git("rev-parse", "HEAD");
  let merge: string | undefined;
  if (opts.merge) {
    await git("checkout", "-q", "main");
    await git("merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature");
    merge = await git("rev-parse", "HEAD");
  }
  const diff = await git("diff", "--name-status", "-z", "--find-renames", `${base}...${head}`);
  const fields = diff.split("\0").filter((f) => f !== "");
  const files: PullFileState[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++]!;
    if (code.startsWith("R")) {
      const from = fields[i++]!;
      files.push({ filename: fields[i++]!, status: "renamed", previous_filename: from });
    } else {
      const letter = code[0];
      files.push({
        filename: fields[i++]!,
        status: letter === "A" ? "added" : letter === "D" ? "removed" : "modified",
      });
    }
  }
  const repo: GitRepo = {
    dir,
    base,
    head,
    ...(merge ? { merge } : {}),
    files,
    git,
    checkout: async (sha) => {
      await git("checkout", "-q", "--detach", sha);
    },
  };
  const at = opts.checkout ?? "head";
  await repo.checkout(at === "merge" ? merge! : at === "base" ? base : head);
  return repo;
}

/**
 * What actions/checkout does by default: a new repository fetching only
 * `sha` (as the ref `refs/pull/N/merge` or `…/head`) at depth 1 from the
 * original as `origin`, checked out detached. The result shares the shas.
 */
export async function shallowClone(repo: GitRepo, which: "merge" | "head"): Promise<GitRepo> {
  const sha = which === "merge" ? repo.merge! : repo.head;
  await repo.git("update-ref", `refs/pull/${PR_NUMBER}/${which}`, sha);
  const dir = scratch("cg-clone-");
  const git = async (...args: string[]) =>
    (await exec("git", args, { cwd: dir, env: GIT_ENV, maxBuffer: 64 << 20 })).stdout.trim();
  await git("init", "-q");
  await git("remote", "add", "origin", `file://${repo.dir}`);
  await git(
    "fetch",
    "-q",
    "--no-tags",
    "--depth=1",
    "origin",
    `+refs/pull/${PR_NUMBER}/${which}:refs/remotes/pull/${PR_NUMBER}/${which}`,
  );
  await git("checkout", "-q", "--detach", sha);
  return {
    ...repo,
    dir,
    git,
    checkout: async (s) => {
      await git("checkout", "-q", "--detach", s);
    },
  };
}

// ------------------------------------------------------------------ stand-in

/** The stand-in with REPO and its pull request PR_NUMBER matching `repo` (head, base, files). */
export async function standInFor(
  repo: GitRepo,
  opts: { fork?: boolean; token?: TokenIdentity } = {},
): Promise<StandIn> {
  const gh = await startStandIn(
    opts.token ? { tokens: { [ACTIONS_TOKEN]: opts.token } } : undefined,
  );
  gh.addRepo(REPO);
  if (opts.fork) gh.addRepo(FORK);
  gh.addPull(REPO, {
    number: PR_NUMBER,
    headSha: repo.head,
    baseSha: repo.base,
    headRef: "feature",
    headRepo: opts.fork ? FORK : REPO,
    files: repo.files,
  });
  if (repo.merge) gh.repo(REPO).commits.add(repo.merge);
  return gh;
}

/** Assert the stand-in saw only valid requests (and answered by its schema), then close it. */
export async function finish(gh: StandIn, expect: ExpectStatic): Promise<void> {
  try {
    expect(gh.violations).toEqual([]);
    expect(gh.responseProblems).toEqual([]);
  } finally {
    await gh.close();
  }
}

/** A read-only installation token: what a fork's `pull_request` run gets. */
export const READ_ONLY_TOKEN: TokenIdentity = {
  kind: "installation",
  login: ACTIONS_LOGIN,
  readOnly: true,
};

// ------------------------------------------------------------------ the action

/** action.yml's inputs and defaults, as the runner fills them in. */
function actionDefaults(token: string): Record<string, string> {
  const doc = parseYaml(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
    inputs: Record<string, { default?: string }>;
  };
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(doc.inputs)) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the runner evaluates this expression
    out[name] = String(spec.default ?? "").replace("${{ github.token }}", token);
  }
  return out;
}

export interface RunOptions {
  repo: GitRepo;
  /** API root; absent → a closed port (the action must not call it). */
  gh?: StandIn;
  event: string;
  /** The event payload; default: a webhooks example for `event` patched to the repo and PR. */
  payload?: unknown;
  /** Inputs over action.yml's defaults (names as in action.yml). */
  inputs?: Record<string, string>;
  /** The PR's head comes from the fork (payload). */
  fork?: boolean;
  /** GITHUB_SHA (default: what the runner sets for the event). */
  sha?: string;
  env?: Record<string, string>;
  token?: string;
  /** The bundle to run (default: this repository's dist/index.js). */
  dist?: string;
  /** Called with the running step, e.g. to signal it like a cancelling runner. */
  onSpawn?: (child: ChildProcessByStdio<null, Readable, Readable>) => void;
  /** State saved by the main step (ActionResult.state): runs the post step instead. */
  postState?: Record<string, string>;
}

export interface ActionResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed from GITHUB_OUTPUT. */
  outputs: Record<string, string>;
  /** GITHUB_STEP_SUMMARY after the step. */
  summary: string;
  runnerTemp: string;
  /** Workflow commands the runner would act on (stdout and stderr). */
  commands: WorkflowCommand[];
  /** What the step saved for its post step (GITHUB_STATE). */
  state: Record<string, string>;
}

/** The payload the runner would write for `event` on this repo's PR. */
export function payloadFor(
  event: string,
  repo: GitRepo,
  opts: {
    fork?: boolean;
    prNumber?: string;
    /** `pull_request_review`: who reviewed which commit, and the action (default `submitted`). */
    review?: { login: string; sha: string; action?: "submitted" | "dismissed" };
  } = {},
): unknown {
  const pull = {
    owner: OWNER,
    repo: NAME,
    number: PR_NUMBER,
    headSha: repo.head,
    baseSha: repo.base,
    headRef: "feature",
    baseRef: "main",
    fork: opts.fork ?? false,
  };
  if (event === "pull_request_review") {
    const review = opts.review ?? { login: "octocat", sha: repo.head };
    const p = examplePayload(event, review.action ?? "submitted", pull);
    p.review.user.login = review.login;
    p.review.commit_id = review.sha;
    return p;
  }
  if (event === "pull_request" || event === "pull_request_target") {
    const p = examplePayload(event, "synchronize", pull);
    p.pull_request.changed_files = repo.files.length;
    return p;
  }
  if (event === "workflow_dispatch") {
    return examplePayload("workflow_dispatch", undefined, {
      owner: OWNER,
      repo: NAME,
      ref: "refs/heads/main",
      inputs: opts.prNumber ? { "pr-number": opts.prNumber } : {},
    });
  }
  if (event === "workflow_run") return workflowRunPayload(repo, { fork: opts.fork ?? false });
  if (event === "push") {
    return examplePayload("push", undefined, { owner: OWNER, repo: NAME, sha: repo.head });
  }
  return examplePayload(event as "issues", "opened", { owner: OWNER, repo: NAME });
}

/**
 * A `workflow_run` (completed) payload for the run that built this repo's PR
 * head: what GitHub sends stage 2 of the fork setup. GitHub leaves
 * `pull_requests` empty for a fork's PR; `patch` overrides any fact.
 */
export function workflowRunPayload(
  repo: GitRepo,
  opts: {
    fork?: boolean;
    headSha?: string;
    headBranch?: string;
    headRepo?: string;
    pullNumbers?: number[];
    /** `workflow_run.event`: what started the triggering run (default `pull_request`). */
    event?: string;
  } = {},
): unknown {
  // A real completed run: its shape is what GitHub sends.
  const p = examplePayload("workflow_run", "completed", { owner: OWNER, repo: NAME });
  const run = p.workflow_run as unknown as Record<string, unknown>;
  const headRepo = opts.headRepo ?? (opts.fork ? FORK : REPO);
  // The examples' runs come from workflow_dispatch and repository_dispatch; stage 1 is a PR's run.
  run.event = opts.event ?? "pull_request";
  run.head_sha = opts.headSha ?? repo.head;
  run.head_branch = opts.headBranch ?? "feature";
  run.head_repository = {
    ...(run.head_repository as object),
    full_name: headRepo,
    name: NAME,
  };
  const linked = opts.pullNumbers ?? (opts.fork ? [] : [PR_NUMBER]);
  run.pull_requests = linked.map((number) => ({
    url: `https://api.github.com/repos/${REPO}/pulls/${number}`,
    id: 1000 + number,
    number,
    head: { ref: "feature", sha: repo.head, repo: { id: 1, url: "", name: NAME } },
    base: { ref: "main", sha: repo.base, repo: { id: 1, url: "", name: NAME } },
  }));
  return p;
}

/** Run `node dist/index.js` like the runner runs a node24 action's `main`. */
export async function runAction(opts: RunOptions): Promise<ActionResult> {
  const token = opts.token ?? ACTIONS_TOKEN;
  const runnerTemp = scratch("cg-runner-");
  const outputPath = join(runnerTemp, "github_output");
  const summaryPath = join(runnerTemp, "step_summary");
  const eventPath = join(runnerTemp, "event.json");
  const statePath = join(runnerTemp, "github_state");
  writeFileSync(statePath, "");
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  const payload =
    opts.payload ??
    payloadFor(opts.event, opts.repo, {
      fork: opts.fork ?? false,
      ...(opts.inputs?.["pr-number"] ? { prNumber: opts.inputs["pr-number"] } : {}),
    });
  writeFileSync(eventPath, JSON.stringify(payload));

  const defaultSha =
    opts.event === "pull_request"
      ? (opts.repo.merge ?? opts.repo.head)
      : opts.event === "pull_request_target" || opts.event === "workflow_dispatch"
        ? opts.repo.base
        : opts.repo.head;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? runnerTemp,
    LANG: "C.UTF-8",
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: opts.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_SHA: opts.sha ?? defaultSha,
    GITHUB_REF:
      opts.event === "pull_request" || opts.event === "pull_request_target"
        ? `refs/pull/${PR_NUMBER}/merge`
        : "refs/heads/main",
    GITHUB_WORKSPACE: opts.repo.dir,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_STATE: statePath,
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: opts.gh?.url ?? "http://127.0.0.1:9",
    GITHUB_ACTION: "__run",
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: "Linux",
    ...opts.env,
  };
  // The runner hands the post step what the main step saved, as STATE_<name>.
  for (const [name, value] of Object.entries(opts.postState ?? {})) env[`STATE_${name}`] = value;
  for (const [name, value] of Object.entries({ ...actionDefaults(token), ...opts.inputs })) {
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  }

  const child = spawn(process.execPath, [opts.dist ?? DIST], {
    cwd: opts.repo.dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  opts.onSpawn?.(child);
  const { code, stdout, stderr } = await outputOf(child);

  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputPath, "utf8")),
    summary: readFileSync(summaryPath, "utf8"),
    runnerTemp,
    commands: [...workflowCommands(stdout), ...workflowCommands(stderr)],
    state: parseOutputFile(readFileSync(statePath, "utf8")),
  };
}

/** A child's exit code and its whole stdout and stderr; SIGKILLed after two minutes. */
export async function outputOf(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
) {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c) => resolve(c));
  });
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** `name<<DELIM\nvalue\nDELIM\n` entries (and plain `name=value` lines) of a GITHUB_OUTPUT file. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delim] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i]!);
      if (i >= lines.length) throw new Error(`GITHUB_OUTPUT: unterminated ${name}<<${delim}`);
      out[name!] = value.join("\n");
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0) throw new Error(`GITHUB_OUTPUT: bad line ${JSON.stringify(line)}`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** Commands the runner has extensions for (plus `stop-commands`). */
const RUNNER_COMMANDS = new Set([
  "stop-commands",
  "set-env",
  "set-output",
  "save-state",
  "add-mask",
  "add-path",
  "debug",
  "notice",
  "warning",
  "error",
  "group",
  "endgroup",
  "echo",
  "add-matcher",
  "remove-matcher",
]);

export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
  line: string;
}

/**
 * Parse one output line the way the runner does (actions/runner
 * ActionCommand.TryParseV2, then the legacy TryParse): `::cmd props::data`
 * after trimming leading whitespace, else `##[cmd props]data` anywhere in the
 * line. `extra` are commands registered besides the runner's (a stop token).
 */
function parseCommand(line: string, extra?: string): WorkflowCommand | undefined {
  const known = (name: string) =>
    RUNNER_COMMANDS.has(name.toLowerCase()) ||
    (extra !== undefined && name.toLowerCase() === extra.toLowerCase());
  const trimmed = line.trimStart();
  if (trimmed.startsWith("::")) {
    const end = trimmed.indexOf("::", 2);
    if (end >= 0) {
      const info = trimmed.slice(2, end);
      const space = info.indexOf(" ");
      const command = space < 0 ? info : info.slice(0, space);
      if (known(command)) {
        const properties: Record<string, string> = {};
        if (space > 0) {
          for (const pair of info
            .slice(space + 1)
            .trim()
            .split(",")) {
            const eq = pair.indexOf("=");
            if (eq > 0) properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
          }
        }
        return { command, properties, data: unescapeData(trimmed.slice(end + 2)), line };
      }
    }
  }
  const prefix = line.indexOf("##[");
  if (prefix >= 0) {
    const rb = line.indexOf("]", prefix);
    if (rb >= 0) {
      const info = line.slice(prefix + 3, rb);
      const space = info.indexOf(" ");
      const command = space < 0 ? info : info.slice(0, space);
      if (known(command)) return { command, properties: {}, data: line.slice(rb + 1), line };
    }
  }
  return undefined;
}

/**
 * The workflow commands the runner would act on in `output` (stdout or
 * stderr), honouring `stop-commands`: while stopped, only the token resumes.
 * Stop and resume themselves are not returned.
 */
export function workflowCommands(output: string): WorkflowCommand[] {
  const out: WorkflowCommand[] = [];
  let stopToken: string | undefined;
  for (const line of output.split("\n")) {
    const cmd = parseCommand(line, stopToken);
    if (!cmd) continue;
    if (stopToken !== undefined) {
      if (cmd.command.toLowerCase() === stopToken.toLowerCase()) stopToken = undefined;
      continue;
    }
    if (cmd.command === "stop-commands") {
      stopToken = cmd.data;
      continue;
    }
    out.push(cmd);
  }
  return out;
}

/** Lines of `output` inside stop-commands blocks (logged, never interpreted). */
export function stoppedLines(output: string): string[] {
  const out: string[] = [];
  let stopToken: string | undefined;
  for (const line of output.split("\n")) {
    const cmd = parseCommand(line, stopToken);
    if (stopToken !== undefined) {
      if (cmd && cmd.command.toLowerCase() === stopToken.toLowerCase()) stopToken = undefined;
      else out.push(line);
      continue;
    }
    if (cmd?.command === "stop-commands") stopToken = cmd.data;
  }
  return out;
}

function unescapeProperty(s: string): string {
  return s
    .replace(/%0D/g, "\r")
    .replace(/%0A/g, "\n")
    .replace(/%3A/g, ":")
    .replace(/%2C/g, ",")
    .replace(/%25/g, "%");
}

/** Decode a workflow command's escaped data (`%25`, `%0D`, `%0A`). */
export function unescapeData(s: string): string {
  return s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
}

// ------------------------------------------------------------------ contracts

export const ORACLE_DIR = ".claude/tasks/contracts";

export interface OracleCriterion {
  title: string;
  check?: string;
  expect?: string;
}

/** A markdown oracle contract: criteria (`N. title` + CHECK/EXPECT/EVIDENCE), ABANDON lines. */
export function oracleContract(
  slug: string,
  criteria: OracleCriterion[],
  opts: { abandon?: Array<[number, string]>; status?: string; extra?: string } = {},
): string {
  const lines = [
    `# CONTRACT — ${slug}`,
    `- date: 2026-11-29 | flow: feat | branch: feat/${slug}`,
    `- status: ${opts.status ?? "active"}`,
    "",
    "## REQUEST (verbatim — IMMUTABLE)",
    `Make ${slug} work.`,
    "",
    "## ACCEPTANCE CRITERIA",
  ];
  criteria.forEach((c, i) => {
    lines.push(`${i + 1}. ${c.title}`);
    if (c.check !== undefined) lines.push(`   CHECK: ${c.check}`);
    if (c.expect !== undefined) lines.push(`   EXPECT: ${c.expect}`);
    if (c.check !== undefined || c.expect !== undefined) lines.push("   EVIDENCE: pending");
  });
  if (opts.extra) lines.push(opts.extra);
  for (const [id, reason] of opts.abandon ?? []) lines.push(`ABANDON: ${id} ${reason}`);
  lines.push("", "## FILE SCOPE", "src/", "");
  return lines.join("\n");
}

export function oraclePath(slug: string): string {
  return `${ORACLE_DIR}/2026-11-29-${slug}-1200.md`;
}

export function sha256(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

export interface PlanTask {
  id: string;
  title: string;
  wave?: number;
  depends_on?: string[];
  verification: unknown[];
}

/** `phase-N-plan.md` and a `phase-N-contract.json` compiled from it (hash matches unless `hash` given). */
export function planContract(
  phase: number,
  tasks: PlanTask[],
  opts: { plan?: string; hash?: string } = {},
): Record<string, string> {
  const plan = opts.plan ?? `---\nphase: ${phase}\n---\n\n# Phase ${phase}\n`;
  const contract = {
    version: 1,
    phase,
    goal: `Phase ${phase} goal.`,
    why: "Because.",
    generated_at: "2026-11-29T12:00:00Z",
    generated_by: "planner",
    source_plan_hash: opts.hash ?? sha256(plan),
    tasks: tasks.map((t) => ({
      id: t.id,
      title: t.title,
      wave: t.wave ?? 1,
      depends_on: t.depends_on ?? [],
      files_modify: [],
      files_create: [],
      files_delete: [],
      acceptance_criteria: [t.title],
      action: `Do ${t.title}.`,
      context_files: [],
      verification: t.verification,
    })),
    success_criteria: [`Phase ${phase} done.`],
  };
  return {
    [`.planning/phase-${phase}-plan.md`]: plan,
    [`.planning/phase-${phase}-contract.json`]: `${JSON.stringify(contract, null, 2)}\n`,
  };
}

/** The contract of the integrity attacks: the admin guard's role check, as `pattern`. */
export function adminGuardContract(pattern: string): Record<string, string> {
  return planContract(1, [
    {
      id: "T1",
      title: "Admin guard checks the role claim",
      verification: [
        { type: "grep-match", path: "src/admin.js", pattern, expect: "present" },
        { type: "file-exists", path: "src/admin.js", must_contain: "allow" },
      ],
    },
  ]);
}

/**
 * Base: the guard checks the role and the contract says so. Head: the agent
 * dropped the role check and loosened the pattern so the gate stays green.
 */
export const WEAKENED_GUARD: { base: Files; head: Files } = {
  base: {
    "src/admin.js": "if (user.app_metadata.role === 'admin') allow();\n",
    ...adminGuardContract("app_metadata\\.role === 'admin'"),
  },
  head: {
    "src/admin.js": "if (user.app_metadata) allow();\n",
    ...adminGuardContract("app_metadata"),
  },
};

/** The JSON report a run wrote (its `report` output). */
// biome-ignore lint/suspicious/noExplicitAny: tests read the fields they assert on.
export function reportOf(r: ActionResult): any {
  return JSON.parse(readFileSync(r.outputs.report!, "utf8"));
}

/** The newest check run on the stand-in's repository. */
export function lastCheckRun(gh: StandIn) {
  const runs = gh.repo(REPO).checkRuns;
  return runs[runs.length - 1]!;
}

/** 1-based line of the first line of `text` containing `needle`. */
export function lineOf(text: string, needle: string, from = 1): number {
  const lines = text.split("\n");
  for (let i = from - 1; i < lines.length; i++) if (lines[i]!.includes(needle)) return i + 1;
  throw new Error(`no line contains ${JSON.stringify(needle)}`);
}

/** What a run posted on the pull request: each check run (name, conclusion, output) and every comment body. */
export function posted(gh: Awaited<ReturnType<typeof standInFor>>) {
  const state = gh.repo(REPO);
  return {
    checkRuns: state.checkRuns.map((c) => ({
      name: c.name,
      conclusion: c.conclusion,
      output: c.output,
    })),
    comments: state.comments.filter((c) => c.issueNumber === PR_NUMBER).map((c) => c.body),
  };
}
