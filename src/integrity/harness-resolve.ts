import { posix } from "node:path";
import {
  defaultTarget,
  entryText,
  type HarnessEntry,
  makeLines,
  makeRecipe,
  ruleOf,
} from "./harness-entry.js";
import { join, type SimpleCommand, simpleCommands } from "./harness-shell.js";
import { TASK_RUNNER_FILES, type TaskRunner, taskRunner } from "./harness-task-runners.js";

/**
 * The files of the tree at base, read on demand: a string, `null` when the
 * path is no regular file there, `undefined` when it was not read yet (the
 * resolver then lists it in `needs`, and the caller reads it and asks again).
 */
export type Tree = (path: string) => string | null | undefined;

/** One file entry a check's pass or fail depends on, and how the command got there. */
export interface HarnessPart {
  file: string;
  entry: HarnessEntry;
  /** The chain that led to it, e.g. "`npm test` → scripts.test → `sh scripts/verify.sh`". */
  via: string;
}

export interface ResolvedHarness {
  parts: HarnessPart[];
  /** What could not be followed, each a sentence (the check's warning). */
  unresolved: string[];
  /** Paths to read before the answer is complete. */
  needs: string[];
}

/** Commands that run no file of the tree beyond what their line names: nothing to resolve. */
export const STATIC_COMMANDS = [
  "echo",
  "printf",
  "test",
  "[",
  "[[",
  "true",
  "false",
  ":",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "cat",
  "head",
  "tail",
  "wc",
  "ls",
  "diff",
  "cmp",
  "sort",
  "uniq",
  "cut",
  "tr",
  "sed",
  "awk",
  "jq",
  "stat",
  "file",
  "mkdir",
  "rm",
  "cp",
  "mv",
  "touch",
  "sleep",
  "exit",
  "return",
  "export",
  "set",
  "unset",
  "read",
  "curl",
  "wget",
  "git",
  "tee",
  "basename",
  "dirname",
  "pwd",
  "which",
  "type",
  "date",
  "expr",
  "seq",
  "sha256sum",
  "sha1sum",
  "md5sum",
  "shasum",
  "tar",
  "gzip",
  "unzip",
  "chmod",
  "ln",
  "readlink",
  "realpath",
  "env",
  "yes",
  "xxd",
  "od",
  "base64",
] as const;
const STATIC = new Set<string>(STATIC_COMMANDS);

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
const INTERPRETERS = new Set([
  "node",
  "python",
  "python3",
  "ruby",
  "perl",
  "tsx",
  "ts-node",
  "bun",
  "deno",
  "php",
]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const RUNNERS_JS = new Set(["vitest", "jest", "mocha", "playwright"]);
const PYTEST = new Set(["pytest", "py.test"]);
const BIN_RUNNERS = new Set(["npx", "bunx", "pnpx"]);
// Package-manager sub-commands that run no script of package.json.
const PM_BUILTINS = new Set([
  "install",
  "i",
  "ci",
  "add",
  "remove",
  "uninstall",
  "update",
  "up",
  "audit",
  "outdated",
  "ls",
  "list",
  "why",
  "pack",
  "publish",
  "version",
  "config",
  "init",
  "link",
  "unlink",
  "prune",
  "dedupe",
  "rebuild",
  "cache",
  "info",
  "view",
  "whoami",
  "login",
  "logout",
  "store",
  "import",
]);

export const JS_RUNNER_CONFIGS: Record<string, readonly string[]> = {
  vitest: ["vitest.config", "vitest.workspace", "vitest.projects", "vite.config"],
  jest: ["jest.config"],
  mocha: [".mocharc"],
  playwright: ["playwright.config"],
};
export const JS_EXT = [
  ".ts",
  ".mts",
  ".cts",
  ".js",
  ".mjs",
  ".cjs",
  ".json",
  ".yml",
  ".yaml",
  ".jsonc",
];
export const PM_CONFIG_FILES = [".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml"] as const;
export const PYTHON_CONFIG_FILES = ["pip.conf"] as const;

interface Ctx {
  tree: Tree;
  changed: readonly string[];
  out: ResolvedHarness;
  seen: Set<string>;
}

/**
 * What a check runs, statically, at base: the `package.json` scripts, make
 * targets, scripts and runner configuration its command reaches (the table
 * in docs/integrity.md, `HARNESS_RULES`). `changed` (the PR's paths) stands
 * in for files the resolver cannot list, such as every `conftest.py` under a
 * pytest root. Pure; call again with the `needs` read until none is left.
 */
export function resolveHarness(
  commands: readonly SimpleCommand[],
  tree: Tree,
  changed: readonly string[] = [],
): ResolvedHarness {
  const ctx: Ctx = {
    tree,
    changed,
    out: { parts: [], unresolved: [], needs: [] },
    seen: new Set(),
  };
  for (const c of commands) resolveOne(c, "", ctx);
  ctx.out.needs = [...new Set(ctx.out.needs)].sort();
  ctx.out.unresolved = [...new Set(ctx.out.unresolved)];
  return ctx.out;
}

/** The simple commands of a shell line (an oracle's `CHECK:`, a Verification command). */
export function shellCheck(line: string, cwd = ""): SimpleCommand[] {
  return simpleCommands(line, cwd);
}

/** A command-exit check: its program and arguments, a shell's `-c` read as a line. */
export function argvCheck(command: string, args: readonly string[], cwd = ""): SimpleCommand[] {
  return [{ words: [command, ...args], cwd }];
}

function read(path: string, ctx: Ctx): string | null | undefined {
  const t = ctx.tree(path);
  if (t === undefined) ctx.out.needs.push(path);
  return t;
}

function part(file: string, entry: HarnessEntry, via: string, ctx: Ctx): void {
  const key = `${file}\0${JSON.stringify(entry)}`;
  if (ctx.seen.has(key)) return;
  ctx.seen.add(key);
  read(file, ctx); // its base text is what the head is compared with
  ctx.out.parts.push({ file, entry, via });
}

const show = (words: readonly string[]) => `\`${words.join(" ")}\``;

function resolveOne(c: SimpleCommand, via: string, ctx: Ctx): void {
  const here = via === "" ? show(c.words) : `${via} → ${show(c.words)}`;
  if (c.opaque !== undefined) {
    ctx.out.unresolved.push(`${here}: ${c.opaque}`);
    return;
  }
  if (ctx.seen.size > 500) return; // a cycle the seen-set did not catch: enough is read
  const [cmd, ...rest] = c.words as [string, ...string[]];
  const name = posix.basename(cmd);
  if (cmd.includes("/")) {
    fileEntry(join(c.cwd, cmd), here, ctx);
    return;
  }
  if (SHELLS.has(name)) {
    shell(rest, c.cwd, here, ctx);
    return;
  }
  if (PACKAGE_MANAGERS.has(name)) {
    packageManager(name, rest, c.cwd, here, ctx);
    return;
  }
  if (name === "make" || name === "gmake") {
    make(rest, c.cwd, here, ctx);
    return;
  }
  if (INTERPRETERS.has(name)) {
    interpreter(name, rest, c.cwd, here, ctx);
    return;
  }
  if (BIN_RUNNERS.has(name)) {
    const i = rest.findIndex((w) => !w.startsWith("-"));
    if (i < 0) return void ctx.out.unresolved.push(`${here}: no command to run`);
    resolveOne({ words: rest.slice(i), cwd: c.cwd }, here, ctx);
    return;
  }
  if (RUNNERS_JS.has(name)) {
    jsRunner(name, c.cwd, here, ctx);
    return;
  }
  if (PYTEST.has(name)) {
    pytest(rest, c.cwd, here, ctx);
    return;
  }
  if (name === "cargo") {
    cargo(c.cwd, here, ctx);
    return;
  }
  if (name === "tox") {
    tox(rest, c.cwd, here, ctx);
    return;
  }
  if (Object.hasOwn(TASK_RUNNER_FILES, name)) {
    taskRunner(name as TaskRunner, rest, c.cwd, here, {
      read: (p) => read(p, ctx),
      part: (file, entry, v) => part(file, entry, v, ctx),
      line: (text, cwd, v) => {
        for (const sc of simpleCommands(text, cwd)) resolveOne(sc, v, ctx);
      },
      unresolved: (why) => void ctx.out.unresolved.push(why),
    });
    return;
  }
  if (name === "go") return; // `go test` builds what the tree holds: the tests themselves are read by the tamper reading
  if (name === "find") {
    findExec(rest, c.cwd, here, ctx);
    return;
  }
  if (STATIC.has(name)) {
    // A static tool still runs a program the tree holds when it is given one as a file:
    // `grep -f patterns`, `sed -f script`, `awk -f prog`, `jq -f filter`.
    for (const f of programFiles(name, rest)) fileEntry(join(c.cwd, f), here, ctx);
    return;
  }
  ctx.out.unresolved.push(`${here}: \`${name}\` is no command the gate's resolution table knows`);
}

/**
 * Tools whose `-f FILE` is their program (the patterns, the script, the
 * filter): its long spelling, and the short options that take a value (a
 * bundle `-qf p.txt` reads `f`'s value; in `-efoo`, `foo` is `e`'s).
 */
export const PROGRAM_FILE_FLAGS: Record<string, { long: string; valued: string }> = {
  grep: { long: "--file", valued: "emABCdD" },
  egrep: { long: "--file", valued: "emABCdD" },
  fgrep: { long: "--file", valued: "emABCdD" },
  rg: { long: "--file", valued: "emABCgtTMj" },
  sed: { long: "--file", valued: "eli" },
  awk: { long: "--file", valued: "Fv" },
  jq: { long: "--from-file", valued: "" },
};

/**
 * The files a static tool reads as its program: what decides its exit as
 * much as a script does. Pure.
 */
export function programFiles(name: string, args: readonly string[]): string[] {
  const flags = PROGRAM_FILE_FLAGS[name];
  if (flags === undefined) return [];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if (w === "--") break;
    if (w === flags.long) {
      if (args[i + 1] !== undefined) out.push(args[++i] as string);
    } else if (w.startsWith(`${flags.long}=`)) out.push(w.slice(flags.long.length + 1));
    else if (/^-[^-]/.test(w)) {
      for (let k = 1; k < w.length; k++) {
        const letter = w[k] as string;
        if (letter === "f") {
          const rest = w.slice(k + 1);
          if (rest !== "") out.push(rest);
          else if (args[i + 1] !== undefined) out.push(args[++i] as string);
          break;
        }
        if (flags.valued.includes(letter)) {
          if (k === w.length - 1) i++; // its value is the next word
          break;
        }
      }
    }
  }
  return out.filter((f) => f !== "-" && !f.includes("$"));
}

/** `find … -exec cmd … ;` runs `cmd` on each file found: resolve it like any command. */
function findExec(args: readonly string[], cwd: string, via: string, ctx: Ctx): void {
  for (let i = 0; i < args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i] as string)) continue;
    let end = i + 1;
    while (end < args.length && args[end] !== ";" && args[end] !== "\\;" && args[end] !== "+")
      end++;
    const words = args.slice(i + 1, end);
    i = end;
    if (words.length === 0 || (words[0] as string).includes("{}"))
      ctx.out.unresolved.push(`${via}: runs each file it finds as a program`);
    else resolveOne({ words, cwd }, via, ctx);
  }
}

function fileEntry(path: string, via: string, ctx: Ctx): void {
  part(path, { kind: "file" }, via, ctx);
}

function shell(args: readonly string[], cwd: string, via: string, ctx: Ctx): void {
  const c = args.indexOf("-c");
  if (c >= 0) {
    const line = args[c + 1];
    if (line === undefined) return void ctx.out.unresolved.push(`${via}: \`-c\` without a line`);
    for (const sc of simpleCommands(line, cwd)) resolveOne(sc, via, ctx);
    return;
  }
  const file = args.find((w) => !w.startsWith("-"));
  if (file === undefined)
    return void ctx.out.unresolved.push(`${via}: reads its commands from standard input`);
  fileEntry(join(cwd, file), via, ctx);
}

function interpreter(
  name: string,
  args: readonly string[],
  cwd: string,
  via: string,
  ctx: Ctx,
): void {
  if (
    name === "bun" &&
    args[0] !== undefined &&
    !args[0].startsWith("-") &&
    !/[./]/.test(args[0])
  ) {
    packageManager(name, args, cwd, via, ctx);
    return;
  }
  if (name === "deno" && args[0] === "run") args = args.slice(1);
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if (w === "-m" && /^python/.test(name)) {
      const mod = args[i + 1];
      if (mod === undefined) return;
      if (mod === "pytest") {
        pytest(args.slice(i + 2), cwd, via, ctx);
        return;
      }
      if (mod === "unittest" || mod === "pip" || mod === "venv") return;
      return void ctx.out.unresolved.push(
        `${via}: the module \`${mod}\` is no file the gate resolves`,
      );
    }
    if (w === "-c" || w === "-e" || w === "--eval" || w === "-p" || w === "--print") return; // the code is in the line
    if (w === "--test" && name === "node") continue;
    if (w.startsWith("-")) {
      // `-r x`/`--require x`/`--import x`/`--loader x`: a module loaded before the script.
      if (
        /^(?:-r|--require|--import|--loader|--experimental-loader)$/.test(w) &&
        args[i + 1] !== undefined
      ) {
        const m = args[++i] as string;
        if (m.startsWith(".") || m.includes("/")) fileEntry(join(cwd, m), via, ctx);
      }
      continue;
    }
    fileEntry(join(cwd, w), via, ctx);
    return;
  }
  if (name === "node" && args.includes("--test")) return; // node's runner: the test files themselves
  ctx.out.unresolved.push(`${via}: no script file named`);
}

/** `npm test`, `npm run x`, `pnpm x`, `yarn x`, `bun run x` → `scripts.x` of the package.json where it runs. */
function packageManager(
  pm: string,
  args: readonly string[],
  cwd: string,
  via: string,
  ctx: Ctx,
): void {
  let dir = cwd;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if (/^(?:--prefix|-C|--dir|--cwd)$/.test(w) && args[i + 1] !== undefined)
      dir = join(cwd, args[++i] as string);
    else if (/^(?:--prefix|--dir|--cwd)=/.test(w)) dir = join(cwd, w.slice(w.indexOf("=") + 1));
    else if (
      /^(?:-r|--recursive|-ws|--workspaces|--filter|-F|--workspace|-w)$/.test(w) ||
      w.startsWith("--filter=") ||
      w.startsWith("--workspace=")
    ) {
      return void ctx.out.unresolved.push(
        `${via}: runs the script in workspace packages the gate does not enumerate`,
      );
    } else if (w.startsWith("-") && words.length === 0) continue;
    else words.push(w);
  }
  for (const f of PM_CONFIG_FILES) {
    pmConfig(join(dir, f), via, ctx);
    if (dir !== "") pmConfig(f, via, ctx);
  }
  const [sub, ...more] = words;
  let script: string | undefined;
  if (sub === undefined) return; // `yarn` alone installs
  if (
    sub === "test" ||
    sub === "t" ||
    sub === "tst" ||
    sub === "start" ||
    sub === "stop" ||
    sub === "restart"
  )
    script = sub === "t" || sub === "tst" ? "test" : sub;
  else if (sub === "run" || sub === "run-script" || sub === "rum" || sub === "urn")
    script = more.find((w) => !w.startsWith("-"));
  else if (sub === "exec" || sub === "dlx" || sub === "x") {
    const i = more.findIndex((w) => !w.startsWith("-"));
    if (i >= 0) resolveOne({ words: more.slice(i), cwd: dir }, via, ctx);
    return;
  } else if (PM_BUILTINS.has(sub)) return;
  else if (pm === "npm")
    return void ctx.out.unresolved.push(
      `${via}: \`npm ${sub}\` is no npm command the gate resolves`,
    );
  else script = sub; // pnpm/yarn/bun run a script by its bare name
  if (script === undefined) return void ctx.out.unresolved.push(`${via}: no script named`);
  runScript(dir, script, pm, via, ctx, sub !== "run" && pm !== "npm" ? more : []);
}

function pmConfig(path: string, via: string, ctx: Ctx): void {
  const t = read(path, ctx);
  // Absent at base too: a `.npmrc` the PR adds changes what the scripts install and run.
  if (t !== undefined) part(path, { kind: "file" }, via, ctx);
}

function runScript(
  dir: string,
  script: string,
  pm: string,
  via: string,
  ctx: Ctx,
  _args: readonly string[],
): void {
  const pkg = join(dir, "package.json");
  const text = read(pkg, ctx);
  if (text === undefined) return;
  // pre/post hooks run around the script (npm; older yarn): the three entries decide the result.
  for (const name of [`pre${script}`, script, `post${script}`]) {
    const entry: HarnessEntry = { kind: "json", key: ["scripts", name] };
    const body = entryText(entry, text ?? undefined);
    const key = `script ${pkg} ${name}`;
    if (name !== script && body === undefined) {
      part(pkg, entry, `${via} → scripts.${name}`, ctx); // absent at base: one the PR adds is a change
      continue;
    }
    part(pkg, entry, `${via} → scripts.${name}`, ctx);
    if (body === undefined || ctx.seen.has(key)) continue;
    ctx.seen.add(key);
    // A script runs with node_modules/.bin on its PATH: its bins are resolved like commands.
    for (const sc of simpleCommands(body, dir)) resolveOne(sc, `${via} → scripts.${name}`, ctx);
  }
  void pm;
}

function make(args: readonly string[], cwd: string, via: string, ctx: Ctx): void {
  let dir = cwd;
  let file: string | undefined;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if ((w === "-C" || w === "--directory") && args[i + 1] !== undefined)
      dir = join(dir, args[++i] as string);
    else if ((w === "-f" || w === "--file" || w === "--makefile") && args[i + 1] !== undefined)
      file = args[++i];
    else if (w.startsWith("-") || w.includes("=")) continue;
    else targets.push(w);
  }
  let path: string | undefined;
  let text: string | null | undefined;
  for (const name of file !== undefined ? [file] : ["GNUmakefile", "makefile", "Makefile"]) {
    const p = join(dir, name);
    const t = read(p, ctx);
    if (t === undefined) return;
    if (t !== null) {
      path = p;
      text = t;
      break;
    }
  }
  if (path === undefined || typeof text !== "string") {
    return void ctx.out.unresolved.push(`${via}: no Makefile in ${dir === "" ? "the root" : dir}`);
  }
  makeIncludes(path, text, dir, via, ctx);
  const goals = targets.length > 0 ? targets : [defaultTarget(text)].filter((t) => t !== undefined);
  if (goals.length === 0) return void ctx.out.unresolved.push(`${via}: ${path} has no target`);
  for (const t of goals) makeTarget(path, text, t, dir, `${via} → ${path} target ${t}`, ctx);
}

function makeIncludes(path: string, text: string, dir: string, via: string, ctx: Ctx): void {
  for (const { text: l } of makeLines(text)) {
    const m = /^\s*(?:-include|sinclude|include)\s+(.+)$/.exec(l);
    if (!m) continue;
    for (const f of (m[1] as string)
      .replace(/\s+#.*$/, "")
      .split(/\s+/)
      .filter(Boolean)) {
      if (f.includes("$") || /[*?[]/.test(f)) {
        ctx.out.unresolved.push(`${via}: ${path} includes \`${f}\`, a name the gate cannot expand`);
        continue;
      }
      const p = join(dir, f);
      const t = read(p, ctx);
      if (t === undefined) continue;
      part(p, { kind: "file" }, `${via} → ${path} include ${f}`, ctx);
    }
  }
}

function makeTarget(
  path: string,
  text: string,
  target: string,
  dir: string,
  via: string,
  ctx: Ctx,
): void {
  const key = `make ${path} ${target}`;
  if (ctx.seen.has(key)) return;
  ctx.seen.add(key);
  part(path, { kind: "make-target", target }, via, ctx);
  // Its prerequisites' rules run first: each decides the result too.
  for (const { text: l } of makeLines(text)) {
    const rule = ruleOf(l);
    if (!rule?.targets.includes(target)) continue;
    for (const p of rule.prereqs) {
      if (p.includes("$") || p.includes("%")) continue;
      if (makeLines(text).some((x) => ruleOf(x.text)?.targets.includes(p))) {
        makeTarget(path, text, p, dir, `${via} → target ${p}`, ctx);
      }
    }
  }
  for (const line of makeRecipe(text, target)) {
    if (line.includes("$(MAKE)") || line.includes("$" + "{MAKE}")) {
      resolveOne(
        {
          words: [
            "make",
            ...line
              .replace(/^.*\$[({]MAKE[)}]/, "")
              .trim()
              .split(/\s+/)
              .filter(Boolean),
          ],
          cwd: dir,
        },
        via,
        ctx,
      );
      continue;
    }
    for (const sc of simpleCommands(line, dir)) resolveOne(sc, via, ctx);
  }
}

function jsConfigs(dir: string, bases: readonly string[], via: string, ctx: Ctx): string[] {
  const found: string[] = [];
  for (const b of bases) {
    for (const ext of JS_EXT) {
      const p = join(dir, `${b}${ext}`);
      const t = read(p, ctx);
      if (t === undefined) continue;
      // Absent at base is recorded too: a config the PR adds replaces the defaults.
      part(p, { kind: "file" }, via, ctx);
      if (typeof t === "string") found.push(t);
    }
  }
  return found;
}

function jsRunner(name: string, cwd: string, via: string, ctx: Ctx): void {
  const texts = jsConfigs(
    cwd,
    JS_RUNNER_CONFIGS[name] ?? [],
    `${via} (${name} configuration)`,
    ctx,
  );
  if (name === "jest") {
    part(
      join(cwd, "package.json"),
      { kind: "json", key: ["jest"] },
      `${via} (jest configuration)`,
      ctx,
    );
  }
  // setupFiles, globalSetup, require: modules that run before every test.
  for (const t of texts) {
    const re =
      /(?:setupFiles(?:AfterEach|AfterEnv)?|globalSetup|globalTeardown|require|setupFilesAfterEnv)\s*["']?\s*[:=]\s*(\[[^\]]*\]|["'][^"']+["'])/g;
    for (const m of t.matchAll(re)) {
      for (const s of (m[1] as string).matchAll(/["']([^"']+)["']/g)) {
        const f = (s[1] as string).replace(/^<rootDir>\//, "");
        if (f.startsWith(".") || f.includes("/"))
          fileEntry(join(cwd, f), `${via} (${name} setup file)`, ctx);
      }
    }
  }
}

function pytest(args: readonly string[], cwd: string, via: string, ctx: Ctx): void {
  const at = `${via} (pytest configuration)`;
  const optional = (p: string, entry: HarnessEntry) => {
    const t = read(p, ctx);
    if (t !== undefined) part(p, entry, at, ctx);
  };
  optional(join(cwd, "pytest.ini"), { kind: "file" });
  optional(join(cwd, ".pytest.ini"), { kind: "file" });
  optional(join(cwd, "pyproject.toml"), { kind: "toml-table", table: ["tool", "pytest"] });
  optional(join(cwd, "setup.cfg"), { kind: "ini-section", section: "tool:pytest" });
  optional(join(cwd, "tox.ini"), { kind: "ini-section", section: "pytest" });
  for (const f of PYTHON_CONFIG_FILES) optional(join(cwd, f), { kind: "file" });
  // conftest.py: at the root and in every directory on the path to the tests named.
  const paths = args.filter((w) =>
    !w.startsWith("-") && !w.includes("::") ? true : w.includes("::"),
  );
  const dirs = new Set<string>([cwd]);
  for (const p of paths.map((w) => w.split("::")[0] as string)) {
    const full = join(cwd, p);
    const parts = full.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join("/");
      if (!/\.py$/.test(d)) dirs.add(d);
    }
  }
  for (const d of dirs) optional(join(d, "conftest.py"), { kind: "file" });
  if (paths.length === 0) {
    // pytest collects from its root down: every conftest.py the PR changes beneath it counts.
    for (const c of ctx.changed) {
      if (posix.basename(c) === "conftest.py" && (cwd === "" || c.startsWith(`${cwd}/`)))
        part(c, { kind: "file" }, at, ctx);
    }
  }
}

function cargo(cwd: string, via: string, ctx: Ctx): void {
  const dirs = [cwd];
  for (let d = cwd; d !== ""; ) {
    d = posix.dirname(d) === "." ? "" : posix.dirname(d);
    dirs.push(d);
  }
  for (const d of dirs) {
    for (const f of [".cargo/config", ".cargo/config.toml"]) {
      const p = join(d, f);
      const t = read(p, ctx);
      if (t !== undefined) part(p, { kind: "file" }, `${via} (cargo configuration)`, ctx);
    }
  }
}

function tox(args: readonly string[], cwd: string, via: string, ctx: Ctx): void {
  const p = join(cwd, "tox.ini");
  const t = read(p, ctx);
  if (t === undefined) return;
  part(p, { kind: "ini-section", section: "testenv" }, via, ctx);
  const e = args.indexOf("-e");
  for (const env of e >= 0 ? (args[e + 1] ?? "").split(",") : []) {
    if (env !== "") part(p, { kind: "ini-section", section: `testenv:${env}` }, via, ctx);
  }
  if (e < 0)
    ctx.out.unresolved.push(`${via}: runs every environment of ${p}; only [testenv] is compared`);
}
