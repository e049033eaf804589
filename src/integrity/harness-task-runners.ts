import { posix } from "node:path";
import { parse } from "yaml";
import type { HarnessEntry } from "./harness-entry.js";
import { join } from "./harness-shell.js";

/** What the resolver lends a task runner's rule: its reads, its parts and its own resolution of a line. */
export interface RunnerHooks {
  read(path: string): string | null | undefined;
  part(file: string, entry: HarnessEntry, via: string): void;
  /** Resolve a shell line run in `cwd`, as a check's own line. */
  line(text: string, cwd: string, via: string): void;
  unresolved(why: string): void;
}

/** The file names each task runner looks for, where it runs and in every directory above. */
export const TASK_RUNNER_FILES = {
  just: ["justfile", "Justfile", ".justfile", "JUSTFILE"],
  task: [
    "Taskfile.yml",
    "taskfile.yml",
    "Taskfile.yaml",
    "taskfile.yaml",
    "Taskfile.dist.yml",
    "taskfile.dist.yml",
    "Taskfile.dist.yaml",
    "taskfile.dist.yaml",
  ],
  nox: ["noxfile.py"],
} as const;
export type TaskRunner = keyof typeof TASK_RUNNER_FILES;

const WHOLE: HarnessEntry = { kind: "file" };

/**
 * `just X`, `task X`, `nox -s X`. Each runner's file is compared whole (its
 * recipes share variables, settings and imports, so one recipe's text is not
 * all that decides it), and the named recipe's or task's own commands are
 * resolved in turn, so the script a recipe runs is part of the check too.
 * Pure, over the resolver's hooks.
 */
export function taskRunner(
  name: TaskRunner,
  args: readonly string[],
  cwd: string,
  via: string,
  h: RunnerHooks,
): void {
  const flagged = fileFlag(
    args,
    name === "just"
      ? ["-f", "--justfile"]
      : name === "task"
        ? ["-t", "--taskfile"]
        : ["-f", "--noxfile"],
  );
  const found =
    flagged !== undefined
      ? findExact(join(cwd, flagged), h)
      : name === "nox"
        ? findExact(join(cwd, "noxfile.py"), h)
        : findUp(cwd, TASK_RUNNER_FILES[name], h);
  if (found === "pending") return;
  if (found === undefined)
    return void h.unresolved(`${via}: no ${TASK_RUNNER_FILES[name][0]} where it runs`);
  h.part(found.path, WHOLE, via);
  const positional = positionals(args, name);
  if (name === "just") just(found.path, found.text, positional, via, h);
  else if (name === "task") task(found.path, found.text, positional, via, h);
  else
    h.unresolved(
      `${via}: the sessions of ${found.path} are Python (\`session.run\`), so what they run beyond the file is not followed`,
    );
}

function fileFlag(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if (names.includes(w)) return args[i + 1];
    for (const n of names)
      if (n.startsWith("--") && w.startsWith(`${n}=`)) return w.slice(n.length + 1);
  }
  return undefined;
}

type Found = { path: string; text: string } | undefined | "pending";

function findExact(path: string, h: RunnerHooks): Found {
  const t = h.read(path);
  return t === undefined ? "pending" : t === null ? undefined : { path, text: t };
}

function findUp(cwd: string, names: readonly string[], h: RunnerHooks): Found {
  for (
    let dir = cwd;
    ;
    dir = dir === "" ? "" : posix.dirname(dir) === "." ? "" : posix.dirname(dir)
  ) {
    for (const n of names) {
      const f = findExact(join(dir, n), h);
      if (f !== undefined) return f;
    }
    if (dir === "") return undefined;
  }
}

/** The recipe, task or session names: words that are no option (nor an option's value, nor `VAR=value`). */
function positionals(args: readonly string[], name: TaskRunner): string[] {
  const valued = new Set(
    name === "just"
      ? ["-f", "--justfile", "-d", "--working-directory", "--set", "--shell", "--dotenv-path"]
      : name === "task"
        ? ["-t", "--taskfile", "-d", "--dir", "-o", "--output"]
        : ["-f", "--noxfile", "-p", "--python", "-t", "--tags", "-k"],
  );
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as string;
    if (w === "--") break;
    if (name === "nox") {
      if (w === "-s" || w === "-e" || w === "--session" || w === "--sessions") {
        for (let j = i + 1; j < args.length && !(args[j] as string).startsWith("-"); j++)
          out.push(args[j] as string);
      }
      continue;
    }
    if (valued.has(w)) i++;
    else if (!w.startsWith("-") && !w.includes("=")) out.push(w);
  }
  return out;
}

/** A justfile's recipes: name → its dependencies and body lines. */
function justRecipes(text: string): Map<string, { deps: string[]; body: string[] }> {
  const out = new Map<string, { deps: string[]; body: string[] }>();
  let current: { deps: string[]; body: string[] } | undefined;
  for (const line of text.split("\n")) {
    if (/^\s+\S/.test(line)) {
      current?.body.push(line.trim());
      continue;
    }
    current = undefined;
    const m = /^@?([A-Za-z_][\w-]*)(?:\s+[^:]*)?:(?!=)(.*)$/.exec(line);
    if (!m || /^(?:set|alias|export|import|mod)\b/.test(line)) continue;
    const deps = (m[2] ?? "")
      .replace(/#.*$/, "")
      .split(/\s+/)
      .filter((d) => /^[A-Za-z_][\w-]*$/.test(d));
    current = { deps, body: [] };
    out.set(m[1] as string, current);
  }
  return out;
}

function just(path: string, text: string, names: string[], via: string, h: RunnerHooks): void {
  const dir = posix.dirname(path) === "." ? "" : posix.dirname(path);
  for (const m of text.matchAll(/^import\??\s+['"]([^'"]+)['"]/gm)) {
    const p = join(dir, m[1] as string);
    const t = h.read(p);
    if (typeof t === "string") h.part(p, WHOLE, `${via} → ${path} import ${m[1]}`);
  }
  if (/^mod\??\s/m.test(text)) h.unresolved(`${via}: ${path} has modules (\`mod\`), not followed`);
  const recipes = justRecipes(text);
  const goals = names.filter((n) => recipes.has(n));
  if (goals.length === 0) {
    // Without a recipe, just runs the first one.
    const first = [...recipes.keys()][0];
    if (names.length > 0 || first === undefined)
      return void h.unresolved(`${via}: no recipe \`${names[0] ?? "(default)"}\` in ${path}`);
    goals.push(first);
  }
  const seen = new Set<string>();
  const follow = (name: string, chain: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const r = recipes.get(name);
    if (!r) return;
    for (const d of r.deps) follow(d, `${chain} → recipe ${d}`);
    if (r.body[0]?.startsWith("#!"))
      return void h.unresolved(`${chain}: a shebang recipe, its body is compared but not followed`);
    for (const l of r.body) {
      const cmd = l.replace(/^[@-]+/, "");
      if (cmd.includes("{{")) h.unresolved(`${chain}: \`${cmd}\` interpolates, not followed`);
      else h.line(cmd, dir, chain);
    }
  };
  for (const g of goals) follow(g, `${via} → ${path} recipe ${g}`);
}

function task(path: string, text: string, names: string[], via: string, h: RunnerHooks): void {
  const dir = posix.dirname(path) === "." ? "" : posix.dirname(path);
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return void h.unresolved(`${via}: ${path} does not parse`);
  }
  const rec = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  for (const inc of Object.values(rec(rec(doc).includes))) {
    const f = typeof inc === "string" ? inc : rec(inc).taskfile;
    if (typeof f !== "string" || f.includes("{{")) continue;
    const p = join(dir, /\.ya?ml$/.test(f) ? f : posix.join(f, "Taskfile.yml"));
    if (typeof h.read(p) === "string") h.part(p, WHOLE, `${via} → ${path} includes ${f}`);
  }
  const tasks = rec(rec(doc).tasks);
  const seen = new Set<string>();
  const follow = (name: string, chain: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const t = tasks[name];
    if (t === undefined)
      return void h.unresolved(
        `${chain}: no task \`${name}\` in ${path}${name.includes(":") ? " (a task of an included Taskfile is not followed)" : ""}`,
      );
    const body = typeof t === "string" || Array.isArray(t) ? { cmds: t } : rec(t);
    const cwd = typeof body.dir === "string" ? join(dir, body.dir) : dir;
    const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
    for (const d of list(body.deps)) {
      const n = typeof d === "string" ? d : rec(d).task;
      if (typeof n === "string") follow(n, `${chain} → task ${n}`);
    }
    for (const c of list(body.cmds ?? body.cmd)) {
      const cmd = typeof c === "string" ? c : rec(c).cmd;
      const sub = rec(c).task;
      if (typeof sub === "string") follow(sub, `${chain} → task ${sub}`);
      else if (typeof cmd !== "string") continue;
      else if (cmd.includes("{{")) h.unresolved(`${chain}: \`${cmd}\` interpolates, not followed`);
      else h.line(cmd, cwd, chain);
    }
  };
  for (const n of names.length > 0 ? names : ["default"]) follow(n, `${via} → ${path} task ${n}`);
}
