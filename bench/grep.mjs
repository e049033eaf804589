// Benchmark: 200 `grep-match` checks over a generated 5,000-file, ~100 MB
// tree, through the real CLI bundle (`run --no-write`), against a bash loop
// that runs GNU grep once per check over the same files with the same
// pattern and the same present/absent evaluation. Every check's verdict from
// the gate is compared with the loop's, so both really did the same work.
// Targets: gate / grep loop ≤ 1.0 (not slower), gate peak RSS ≤ 300 MB.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkOutcomes,
  ms,
  planContract,
  planHash,
  runGateOnce,
  runShellOnce,
} from "./lib-proc.mjs";

const DIRS = 50;
const FILES_PER_DIR = 100;
const TARGET_TREE_BYTES = 100 * 1000 * 1000;
const CHECKS = 200;
const CONTRACTS = 4;
const TASKS_PER_CONTRACT = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_RATIO = 1.0;
const TARGET_RSS_MB = 300;

/** Deterministic PRNG (mulberry32): the same tree and checks on every run. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const WORDS = [
  "user",
  "order",
  "item",
  "cart",
  "price",
  "total",
  "config",
  "session",
  "token",
  "cache",
  "request",
  "response",
  "handler",
  "client",
  "server",
  "queue",
  "event",
  "record",
  "batch",
  "payload",
  "result",
  "value",
  "index",
  "count",
  "buffer",
  "stream",
  "state",
  "store",
  "view",
  "route",
  "schema",
  "field",
  "entry",
  "report",
  "metric",
  "logger",
  "parser",
  "builder",
];
const TYPES = ["string", "number", "boolean", "Date", "unknown", "Record<string, number>"];

function ident(r) {
  const a = r.pick(WORDS);
  const b = r.pick(WORDS);
  return `${a}${b[0].toUpperCase()}${b.slice(1)}${r.int(100)}`;
}

/** One realistic-looking line of TypeScript. */
function codeLine(r, depth) {
  const pad = "  ".repeat(depth);
  switch (r.int(14)) {
    case 0:
      return `${pad}const ${ident(r)} = ${ident(r)}(${ident(r)}, ${r.int(1000)});`;
    case 1:
      return `${pad}return ${ident(r)}.${r.pick(WORDS)} ?? ${r.int(50)};`;
    case 2:
      return `${pad}if (${ident(r)} > ${r.int(500)} && !${ident(r)}.${r.pick(WORDS)}) {`;
    case 3:
      return `${pad}// ${r.pick(WORDS)} the ${r.pick(WORDS)} before the ${r.pick(WORDS)} is flushed`;
    case 4:
      return `${pad}let ${ident(r)}: ${r.pick(TYPES)} = ${JSON.stringify(r.pick(WORDS))};`;
    case 5:
      return `${pad}await this.${ident(r)}.${r.pick(WORDS)}(${JSON.stringify(`${r.pick(WORDS)}-${r.int(9999)}`)});`;
    case 6:
      return `${pad}for (const ${r.pick(WORDS)} of ${ident(r)}) ${ident(r)}.push(${r.pick(WORDS)});`;
    case 7:
      return `${pad}throw new Error(\`${r.pick(WORDS)} ${r.pick(WORDS)} failed: \${${ident(r)}}\`);`;
    case 8:
      return `${pad}${ident(r)}.set(${JSON.stringify(r.pick(WORDS))}, { ${r.pick(WORDS)}: ${r.int(100)}, ${r.pick(WORDS)}: ${ident(r)} });`;
    case 9:
      return `${pad}// TODO(${r.pick(WORDS)}): handle the ${r.pick(WORDS)} case (café, résumé)`;
    case 10:
      return "";
    case 11:
      return `${pad}}`;
    case 12:
      return `${pad}logger.${r.pick(["debug", "info", "warn"])}(${JSON.stringify(`${r.pick(WORDS)} ${r.pick(WORDS)}`)}, ${ident(r)});`;
    default:
      return `${pad}${ident(r)} = ${ident(r)} + ${ident(r)} * ${r.int(10)};`;
  }
}

/**
 * ~`bytes` of code: imports, then functions full of code lines. Mostly ASCII
 * with some Latin-1 (é); one file in twenty has a character beyond Latin-1
 * (→), as real trees do.
 */
function fileText(r, bytes, extra) {
  const lines = [];
  let size = 0;
  const push = (line) => {
    lines.push(line);
    size += line.length + 1;
  };
  for (let i = 0, n = 2 + r.int(6); i < n; i++) {
    push(`import { ${ident(r)}, ${ident(r)} } from "../${r.pick(WORDS)}/${r.pick(WORDS)}.js";`);
  }
  push("");
  while (size < bytes) {
    push(`export async function ${ident(r)}(${r.pick(WORDS)}: ${r.pick(TYPES)}): Promise<void> {`);
    for (let i = 0, n = 10 + r.int(30); i < n; i++) push(codeLine(r, 1 + r.int(3)));
    push("}");
    push("");
  }
  if (r.int(20) === 0) lines.splice(r.int(lines.length), 0, "  // state → next state");
  // Rare markers land at a random line.
  for (const line of extra) lines.splice(r.int(lines.length), 0, line);
  return `${lines.join("\n")}\n`;
}

const fileName = (d, f) => `src/d${d}/file${f}.${f % 10 === 0 ? "js" : "ts"}`;

/** A check's files for the gate (glob) and for grep (the same files, as grep options). */
const GLOBS = [
  { glob: "src/**/*.ts", grep: "-r --include=*.ts -- PAT src", weight: 5 },
  { glob: "src/**", grep: "-r -- PAT src", weight: 3 },
  { glob: "src/d1*/**", grep: "-r -- PAT src/d1*", weight: 3 },
  { glob: "src/d2/**", grep: "-r -- PAT src/d2", weight: 2 },
  { glob: "src/**/file7*.ts", grep: "-r --include=file7*.ts -- PAT src", weight: 2 },
  { glob: "src/d4?/*.ts", grep: "-- PAT src/d4?/*.ts", weight: 2 },
  { glob: "src/**/*.js", grep: "-r --include=*.js -- PAT src", weight: 2 },
  { glob: "src/d3/file7.ts", grep: "-- PAT src/d3/file7.ts", weight: 1 },
];

// Patterns in the common subset of JavaScript regexes and POSIX EREs, so
// that the gate and `grep -E` agree on every line.
const RARE_COUNT = 40;
const rare = (k) => `RARE_MARKER_${String(k).padStart(3, "0")}`;
const PATTERNS = {
  often: [
    "return [a-z]+[A-Z][a-z]+[0-9]+",
    "throw new Error",
    "logger\\.(warn|info)",
    "TODO\\((cache|queue)\\)",
    "import \\{ [a-z]+",
    "const [a-z]+Token[0-9]+ = ",
  ],
  never: [
    "NEVER_PRESENT_[0-9]+",
    "eval\\(",
    "console\\.(log|error)",
    "debugger;",
    '(password|secret)[ ]*=[ ]*"',
    "[a-z]+Widget[0-9]{3}",
    "FIXME",
    "process\\.exit\\([0-9]+\\)",
  ],
  rare: Array.from({ length: RARE_COUNT }, (_, k) => rare(k)),
};

function weighted(r, list) {
  const total = list.reduce((n, x) => n + x.weight, 0);
  let at = r.next() * total;
  for (const x of list) {
    at -= x.weight;
    if (at < 0) return x;
  }
  return list.at(-1);
}

function makeChecks(r) {
  const checks = [];
  for (let i = 0; i < CHECKS; i++) {
    const where = weighted(r, GLOBS);
    const kind = r.next();
    const pattern =
      kind < 0.35
        ? r.pick(PATTERNS.never)
        : kind < 0.65
          ? r.pick(PATTERNS.rare)
          : r.pick(PATTERNS.often);
    checks.push({
      where,
      check: {
        type: "grep-match",
        path: where.glob,
        pattern,
        expect: r.next() < 0.5 ? "present" : "absent",
      },
    });
  }
  return checks;
}

function shellQuote(s) {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

/** One `grep -Eq` per check, printing its exit status (0 found, 1 not found, 2 error). */
function grepLoop(checks) {
  const lines = ["set -u", "export LC_ALL=C"];
  for (const { where, check } of checks) {
    lines.push(`grep -Eq ${where.grep.replace("PAT", shellQuote(check.pattern))}; echo $?`);
  }
  return `${lines.join("\n")}\n`;
}

/** The gate's evaluation of a grep exit status. */
function judgeGrep(status, expect) {
  if (status === 2) return "partial";
  const found = status === 0;
  return found === (expect === "present") ? "pass" : "fail";
}

const root = mkdtempSync(join(tmpdir(), "cg-bench-grep-"));
try {
  // The tree: 5,000 files averaging 20 kB; 40 rare markers, each in one file.
  const r = prng(0x5eed);
  const markers = new Map();
  for (let k = 0; k < RARE_COUNT; k++) {
    const at = `${r.int(DIRS)}/${r.int(FILES_PER_DIR)}`;
    markers.set(at, [...(markers.get(at) ?? []), `  // ${rare(k)}: keep in sync with the server`]);
  }
  const mean = TARGET_TREE_BYTES / (DIRS * FILES_PER_DIR);
  let treeBytes = 0;
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(join(root, `src/d${d}`), { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const text = fileText(r, mean * (0.25 + 1.5 * r.next()), markers.get(`${d}/${f}`) ?? []);
      writeFileSync(join(root, fileName(d, f)), text);
      treeBytes += Buffer.byteLength(text);
    }
  }
  const checks = makeChecks(r);
  mkdirSync(join(root, ".planning"));
  const perContract = CHECKS / CONTRACTS;
  const perTask = perContract / TASKS_PER_CONTRACT;
  for (let p = 1; p <= CONTRACTS; p++) {
    const plan = `# Phase ${p}\n\nGrep the tree.\n`;
    const mine = checks.slice((p - 1) * perContract, p * perContract).map((c) => c.check);
    const tasks = Array.from({ length: TASKS_PER_CONTRACT }, (_, t) =>
      mine.slice(t * perTask, (t + 1) * perTask),
    );
    writeFileSync(join(root, `.planning/phase-${p}-plan.md`), plan);
    writeFileSync(
      join(root, `.planning/phase-${p}-contract.json`),
      planContract(p, planHash(plan), tasks),
    );
  }
  const script = grepLoop(checks);

  // Issue 32: the gate's file checks read the head commit's objects under
  // --committed (and in CI); BENCH_SOURCE=disk measures the working tree instead.
  const source = process.env.BENCH_SOURCE === "disk" ? "disk" : "commit";
  if (source === "commit") {
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: "b",
      GIT_AUTHOR_EMAIL: "b@example.com",
      GIT_COMMITTER_NAME: "b",
      GIT_COMMITTER_EMAIL: "b@example.com",
    };
    for (const a of [
      ["init", "-q"],
      ["add", "-A"],
      ["commit", "-qm", "tree"],
    ]) {
      execFileSync("git", a, { cwd: root, env, stdio: "ignore" });
    }
  }

  // Same verdict for every check, or the comparison means nothing.
  const args = [
    "run",
    "--root",
    root,
    "--no-write",
    ...(source === "commit" ? ["--committed"] : []),
  ];
  const probe = await runGateOnce([...args, "--json"]);
  const gateResults = checkOutcomes(JSON.parse(probe.stdout));
  const shellProbe = await runShellOnce(script, { cwd: root });
  const statuses = shellProbe.stdout.trim().split("\n").map(Number);
  if (gateResults.length !== CHECKS || statuses.length !== CHECKS) {
    throw new Error(`expected ${CHECKS} results, got ${gateResults.length} and ${statuses.length}`);
  }
  const tally = { pass: 0, fail: 0, partial: 0 };
  checks.forEach(({ check }, i) => {
    const mine = gateResults[i];
    const theirs = judgeGrep(statuses[i], check.expect);
    if (mine.result !== theirs) {
      throw new Error(
        `check ${i + 1} (${check.path} /${check.pattern}/ ${check.expect}): gate ${mine.result} (${mine.reason}), grep loop ${theirs}`,
      );
    }
    tally[theirs]++;
  });

  // Interleaved, so a busy machine slows both sides alike.
  let gate;
  let base;
  for (let i = 0; i < RUNS; i++) {
    const g = await runGateOnce(args);
    if (g.code !== 1) throw new Error(`contract-gate exited ${g.code}:\n${g.stderr.slice(-2000)}`);
    if (!gate || g.wallMs < gate.wallMs) gate = g;
    const b = await runShellOnce(script, { cwd: root });
    if (b.code !== 0) throw new Error(`grep loop exited ${b.code}:\n${b.stderr.slice(-2000)}`);
    if (!base || b.wallMs < base.wallMs) base = b;
  }

  const ratio = gate.wallMs / base.wallMs;
  const mb = (n) => n.toFixed(0).padStart(4);
  console.log(
    `\n## grep-match: ${CHECKS} checks over ${DIRS * FILES_PER_DIR} files, ${(treeBytes / 1e6).toFixed(0)} MB (best of ${RUNS})`,
  );
  console.log(
    `verdicts agree: ${tally.pass} pass, ${tally.fail} fail, ${tally.partial} error (gate exit 1: some checks fail on purpose)`,
  );
  console.log(
    `contract-gate run (${CONTRACTS} plan contracts, ${source === "commit" ? "from the commit" : "from disk"})  wall ${ms(gate.wallMs)}   peak RSS ${mb(gate.rssMb)} MB (target ≤ ${TARGET_RSS_MB}, ${gate.rssMb <= TARGET_RSS_MB ? "ok" : "OVER"})`,
  );
  console.log(
    `bash loop: grep -Eq once per check (LC_ALL=C)    wall ${ms(base.wallMs)}   peak RSS ${mb(base.rssMb)} MB (largest process)`,
  );
  console.log(
    `ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}, ${ratio <= TARGET_RATIO ? "ok" : "OVER"})`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
