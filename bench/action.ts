// Benchmark: the bundled action (dist/index.js) end to end on a PR with 100
// changed plan contracts (3,000 no-op `true` checks) against the local GitHub
// API stand-in. Prints wall time, time inside check processes, the gate's own
// overhead, API requests and peak RSS; then the no-contracts start-up time and
// the bundle size. Run by `npm run bench` (through tsx: the stand-in is TypeScript).
// Targets: overhead ≤ 2 s; requests ≤ 10 + ⌈annotations/50⌉ + ⌈files/100⌉;
// no contracts → exit ≤ 300 ms; dist/index.js ≤ 2 MB.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { examplePayload } from "../test/github/payloads.js";
import { ACTIONS_TOKEN, startStandIn } from "../test/github/standin.js";
import { type BundleRun, DIST, runBundle, writeProbe } from "./lib-action.js";

const PROBE = writeProbe(join(tmpdir(), `cg-bench-maxrss-${process.pid}.mjs`));
const CONTRACTS = 100;
const TASKS = 3;
const CHECKS_PER_TASK = 10;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

function contract(phase: number, planHash: string): string {
  const tasks = [];
  for (let t = 1; t <= TASKS; t++) {
    tasks.push({
      id: `T${t}`,
      title: `Task ${t}`,
      wave: 1,
      depends_on: [],
      files_modify: [],
      files_create: [`src/p${phase}t${t}.ts`],
      files_delete: [],
      acceptance_criteria: ["no-op"],
      action: "Nothing.",
      context_files: [],
      verification: Array.from({ length: CHECKS_PER_TASK }, () => ({
        type: "command-exit",
        command: "true",
        args: [],
        expected_exit: 0,
      })),
    });
  }
  return JSON.stringify(
    {
      version: 1,
      phase,
      goal: "Benchmark.",
      why: "Benchmark.",
      generated_at: "2026-11-29T12:00:00Z",
      generated_by: "planner",
      source_plan_hash: planHash,
      tasks,
      success_criteria: ["fast"],
    },
    null,
    2,
  );
}

/** Run dist/index.js like the runner; the child reports its own peak RSS on exit. */
function runAction(env: NodeJS.ProcessEnv): Promise<BundleRun> {
  // Run the bundle as the runner does (`node dist/index.js`): the gate derives
  // its sandbox host's command from argv[1].
  // BENCH_NODE_ARGS: extra node flags for the gate, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  return runBundle(PROBE, env, { nodeArgs });
}

function runnerEnv(
  dir: string,
  workspace: string,
  eventName: string,
  payload: unknown,
  api: string,
  sha: string,
  inputs: Record<string, string>,
) {
  const eventPath = join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  for (const f of ["output", "summary"]) writeFileSync(join(dir, f), "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: "bench/repo",
    GITHUB_SHA: sha,
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: join(dir, "output"),
    GITHUB_STEP_SUMMARY: join(dir, "summary"),
    RUNNER_TEMP: dir,
    GITHUB_RUN_ID: "1",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: api,
    "INPUT_GITHUB-TOKEN": ACTIONS_TOKEN,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}

const root = mkdtempSync(join(tmpdir(), "cg-bench-action-"));
const standIn = await startStandIn();
try {
  // A repository: base commit without contracts, head commit with 100 of them.
  const repo = join(root, "repo");
  mkdirSync(join(repo, ".planning"), { recursive: true });
  git(repo, "init", "-q");
  git(repo, "config", "user.email", "bench@example.com");
  git(repo, "config", "user.name", "bench");
  writeFileSync(join(repo, "README.md"), "bench\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  const base = git(repo, "rev-parse", "HEAD");
  const files = [];
  for (let p = 1; p <= CONTRACTS; p++) {
    const plan = `# Phase ${p}\n`;
    const hash = `sha256:${createHash("sha256").update(plan).digest("hex")}`;
    writeFileSync(join(repo, `.planning/phase-${p}-plan.md`), plan);
    writeFileSync(join(repo, `.planning/phase-${p}-contract.json`), contract(p, hash));
    files.push({ filename: `.planning/phase-${p}-plan.md`, status: "added" as const });
    files.push({ filename: `.planning/phase-${p}-contract.json`, status: "added" as const });
  }
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "head");
  const head = git(repo, "rev-parse", "HEAD");

  standIn.addRepo("bench/repo");
  standIn.addPull("bench/repo", { number: 7, headSha: head, baseSha: base, files });
  const payload = examplePayload("pull_request", "opened", {
    owner: "bench",
    repo: "repo",
    number: 7,
    headSha: head,
    baseSha: base,
  });
  (payload as { pull_request: { changed_files: number } }).pull_request.changed_files =
    files.length;

  // Warm-up, untimed: the stand-in compiles its request and response validators
  // on the first use of each endpoint (hundreds of ms, in this process) —
  // time GitHub would not spend. One contract on another PR uses them all.
  standIn.addPull("bench/repo", {
    number: 8,
    headSha: head,
    baseSha: base,
    files: files.slice(0, 2),
  });
  const warmPayload = examplePayload("pull_request", "opened", {
    owner: "bench",
    repo: "repo",
    number: 8,
    headSha: head,
    baseSha: base,
  });
  const warm = await runAction({
    ...runnerEnv(root, repo, "pull_request", warmPayload, standIn.url, head, {
      comment: "always",
    }),
    GITHUB_RUN_ID: "0",
  });
  if (warm.code !== 0) throw new Error(`the warm-up run failed (exit ${warm.code})`);

  const before = standIn.requests.length;
  const env = runnerEnv(root, repo, "pull_request", payload, standIn.url, head, {
    "max-parallel": "2",
    comment: "always",
  });
  const run = await runAction(env);
  const requests = standIn.requests.length - before;
  // BENCH_DEBUG=<file>: the gate's whole log, to see its stages.
  if (process.env.BENCH_DEBUG) writeFileSync(process.env.BENCH_DEBUG, run.stdout);
  const report = JSON.parse(
    readFileSync(
      readFileSync(join(root, "output"), "utf8").match(/report<<(\S+)\n([^\n]*)\n/)?.[2] ?? "",
      "utf8",
    ),
  );
  const checkMs: number = report.contracts
    .flatMap((c: { criteria: { checks: { durationMs: number }[] }[] }) =>
      c.criteria.flatMap((k) => k.checks.map((x) => x.durationMs)),
    )
    .reduce((a: number, b: number) => a + b, 0);
  const insideMs = checkMs / 2; // two processes at a time
  const annotations = 0;
  const budget = 10 + Math.ceil(annotations / 50) + Math.ceil(files.length / 100);
  if (standIn.violations.length)
    throw new Error(`stand-in violations: ${standIn.violations.join("; ")}`);

  // No contracts: a push to a repository without any.
  const empty = join(root, "empty");
  mkdirSync(empty);
  git(empty, "init", "-q");
  writeFileSync(join(empty, "README.md"), "x\n");
  git(empty, "add", "-A");
  git(empty, "-c", "user.email=b@e.c", "-c", "user.name=b", "commit", "-qm", "x");
  const emptySha = git(empty, "rev-parse", "HEAD");
  let best = Number.POSITIVE_INFINITY;
  let bestCpu = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const pushPayload = examplePayload("push", undefined, {
      owner: "bench",
      repo: "repo",
      sha: emptySha,
    });
    const r = await runAction(
      runnerEnv(root, empty, "push", pushPayload, standIn.url, emptySha, { comment: "never" }),
    );
    best = Math.min(best, r.wallMs);
    bestCpu = Math.min(bestCpu, r.cpuMs);
  }
  // The runs above post no check run: the stand-in does not know the commit (422),
  // so the exit is the gate's own time. Where it knows it, the run is created and
  // completed: two writes, and the client keeps GitHub's 1 s between writes.
  standIn.repo("bench/repo").commits.add(emptySha);
  const posted = await runAction(
    runnerEnv(
      root,
      empty,
      "push",
      examplePayload("push", undefined, { owner: "bench", repo: "repo", sha: emptySha }),
      standIn.url,
      emptySha,
      { comment: "never" },
    ),
  );
  const distMb = statSync(DIST).size / 1024 / 1024;

  console.log("\n## action (dist/index.js, local API stand-in)");
  console.log(
    `PR with ${CONTRACTS} changed contracts, ${report.counts.criteria} checks: exit ${run.code}, conclusion ${report.conclusion}`,
  );
  console.log(
    `wall ${run.wallMs.toFixed(0)} ms; inside check processes ≈ ${insideMs.toFixed(0)} ms (Σ ${checkMs.toFixed(0)} ms / 2)`,
  );
  console.log(
    `gate overhead ${(run.wallMs - insideMs).toFixed(0)} ms (target ≤ 2000, ${run.wallMs - insideMs <= 2000 ? "ok" : "OVER"})`,
  );
  console.log(
    `API requests ${requests} (target ≤ ${budget}, ${requests <= budget ? "ok" : "OVER"})   peak RSS ${run.rssMb.toFixed(0)} MB   gate CPU ${run.cpuMs} ms (its own process, not the checks')`,
  );
  console.log(
    `no contracts: exit in ${best.toFixed(0)} ms (target ≤ 300, ${best <= 300 ? "ok" : "OVER"}); CPU ${bestCpu} ms`,
  );
  console.log(
    `no contracts, check run posted (create, then complete ≥ 1 s later): exit in ${posted.wallMs.toFixed(0)} ms`,
  );
  console.log(`dist/index.js ${distMb.toFixed(2)} MB (target ≤ 2, ${distMb <= 2 ? "ok" : "OVER"})`);
} finally {
  await standIn.close();
  rmSync(root, { recursive: true, force: true });
}
