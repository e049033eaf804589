import {
  isNode,
  keyOf,
  type Node,
  RUNNER_GLOBALS,
  RUNNER_MODULE,
  type Scope,
  walk,
} from "./tamper-js-scope.js";
import type { TreeRole, TreeSignal } from "./tamper-tree.js";

/**
 * What any changed file (test or source) does to the harness that measures
 * it, read from the syntax tree: writes to or monkeypatching of the assertion
 * and runner objects (`assert.equal = …`, `Object.assign(assert, …)`, an
 * `expect.extend` that replaces a built-in matcher, chai's `overwriteMethod`,
 * `vi.mock("node:assert")`, `expect.setState`), reading the parent process
 * (`/proc/<pid>/cmdline|environ`, `process.ppid`), writing to a path taken
 * from the command line, the runner's environment or a report's name, and, in
 * test code, `process.exit`. A test passes when the assertions it calls can
 * fail and the runner reports what ran; each of these breaks one of the two.
 */
export function harnessSignals(
  program: Node,
  scope: Scope,
  role: TreeRole,
  out: TreeSignal[],
): void {
  const add = (code: TreeSignal["code"], id: string, n: Node, what: string) =>
    out.push({ code, id, line: n.loc.start.line, what });
  const patched = (n: Node, what: string) =>
    add("assertion-library-patched", "harness-patched", n, what);
  const fragments = stringFragments(program);
  const parentReads = fragments.some((f) => /\b(?:cmdline|environ)\b/.test(f.text));
  const tainted = new Set<string>();
  const taint = (n: unknown): boolean => taintedBy(n, scope, tainted);

  walk(program, (n, parents) => {
    switch (n.type) {
      case "AssignmentExpression":
      case "UpdateExpression":
      case "UnaryExpression": {
        if (n.type === "UnaryExpression" && n.operator !== "delete") return;
        const target = (n.left ?? n.argument) as Node;
        if (n.type === "AssignmentExpression" && target.type === "Identifier" && taint(n.right))
          tainted.add(target.name as string);
        const path = harnessPath(target, scope);
        if (!path) return;
        if (path[0] === "process") {
          if (role === "test" && /^(?:exit|exitCode|reallyExit|abort)$/.test(path[1] ?? ""))
            add("test-process-exit", "process-exit", n, `test code sets ${path.join(".")}`);
          else if (/^(?:exit|reallyExit)$/.test(path[1] ?? "") && path.length === 2)
            patched(n, `replaces ${path.join(".")}, which the runner ends with`);
          return;
        }
        if (path[0] === "chai" && path[1] === "config") return;
        patched(n, `writes to ${path.join(".")}`);
        return;
      }
      case "VariableDeclarator": {
        const id = n.id as Node;
        if (taint(n.init)) for (const name of boundNames(id)) tainted.add(name);
        if (
          role === "test" &&
          id.type === "ObjectPattern" &&
          scope.pathOf(n.init)?.join(".") === "process"
        )
          for (const p of id.properties as Node[])
            if (
              p.type === "ObjectProperty" &&
              /^(?:exit|reallyExit|abort)$/.test(keyOf(p, scope) ?? "")
            )
              add("test-process-exit", "process-exit", p, "test code takes process.exit");
        return;
      }
      case "MemberExpression":
      case "OptionalMemberExpression": {
        const path = scope.pathOf(n);
        const parent = parents.at(-1);
        // Assignment targets are read above.
        if (
          parent &&
          (parent.left === n || (parent.type === "UpdateExpression" && parent.argument === n))
        )
          return;
        if (path?.[0] === "process" && path.length === 2) {
          if (role === "test" && /^(?:exit|reallyExit|abort)$/.test(path[1] ?? ""))
            add("test-process-exit", "process-exit", n, `test code calls ${path.join(".")}`);
          if (path[1] === "ppid")
            add(
              "runner-output-reached",
              "parent-process",
              n,
              "reads the parent process's id (process.ppid)",
            );
        }
        const key = keyOf(n, scope) ?? "";
        if (/^__vitest_\w+__$|^\$\$jest/.test(key))
          patched(n, `reaches the runner's internals (${key})`);
        return;
      }
      case "Identifier": {
        if (/^__vitest_\w+__$/.test(n.name as string) && !scope.isLocal(n.name as string))
          patched(n, `reaches the runner's internals (${n.name})`);
        return;
      }
      case "CallExpression":
      case "OptionalCallExpression":
        callSignals(n, scope, role, taint, patched, add);
        return;
    }
  });
  for (const f of fragments) {
    if (/\/proc\//.test(f.text) && (parentReads || /\b(?:cmdline|environ)\b/.test(f.text)))
      add(
        "runner-output-reached",
        "proc-read",
        f.node,
        `reads another process's command line or environment ("${f.text.slice(0, 40)}")`,
      );
    if (/\$\$jest-matchers-object|jest-matchers-object/.test(f.text))
      patched(f.node, "reaches the runner's internals (the matchers object)");
  }
}

/**
 * The objects whose writes are patching: the assertion libraries and the
 * runners' own objects. Not `it`, `test` or `context`: those are common local
 * names in source (a handler's `context`), and a test's markers are read apart.
 */
const HARNESS_OBJECTS = new Set(["expect", "assert", "chai", "should", "vi", "jest", "process"]);

/** A write target rooted at an assertion or runner object (`assert.equal`, `chai.Assertion.prototype.x`, `globalThis.expect`). */
function harnessPath(target: Node, scope: Scope): string[] | undefined {
  if (target.type === "Identifier") {
    const name = target.name as string;
    return HARNESS_OBJECTS.has(name) && !scope.isLocal(name) && name !== "process"
      ? [name]
      : undefined;
  }
  const path = scope.pathOf(target);
  if (!path || path.length === 0) return undefined;
  if (HARNESS_OBJECTS.has(path[0] ?? "")) return path;
  // Through the global object by name (`globalThis.it = it.skip`), any runner global is the runner's.
  return path.length === 1 && isGlobalObject(target.object) ? path : undefined;
}

const GLOBAL_OBJECT = /^(?:globalThis|global|window|self)$/;

/** `globalThis`, `global`, `(globalThis as any)`: the global object itself. */
function isGlobalObject(n: unknown): boolean {
  let c = n;
  while (
    isNode(c) &&
    /^(?:TSAsExpression|TSNonNullExpression|ParenthesizedExpression)$/.test(c.type)
  )
    c = c.expression;
  return isNode(c) && c.type === "Identifier" && GLOBAL_OBJECT.test(c.name as string);
}

const DEFINE = /^(?:assign|defineProperty|defineProperties|setPrototypeOf|set|deleteProperty)$/;
const WRITE_FS =
  /^(?:writeFile|writeFileSync|appendFile|appendFileSync|rename|renameSync|copyFile|copyFileSync|cp|cpSync|createWriteStream|symlink|symlinkSync|link|linkSync|truncate|truncateSync|rm|rmSync|unlink|unlinkSync|open|openSync|outputFile|outputFileSync|move|moveSync|write)$/;

/** Every matcher `expect` comes with (jest and vitest): `expect.extend` may add matchers, not replace these. */
const BUILT_IN_MATCHERS = new Set(
  (
    "toBe toEqual toStrictEqual toBeTruthy toBeFalsy toBeNull toBeUndefined toBeDefined toBeNaN " +
    "toContain toContainEqual toHaveLength toHaveProperty toMatch toMatchObject toThrow toThrowError " +
    "toBeCloseTo toBeGreaterThan toBeGreaterThanOrEqual toBeLessThan toBeLessThanOrEqual " +
    "toBeInstanceOf toBeTypeOf toSatisfy toBeOneOf toHaveBeenCalled toHaveBeenCalledTimes " +
    "toHaveBeenCalledWith toHaveBeenLastCalledWith toHaveBeenNthCalledWith toHaveBeenCalledOnce " +
    "toHaveBeenCalledExactlyOnceWith toHaveBeenCalledBefore toHaveBeenCalledAfter toHaveReturned " +
    "toHaveReturnedTimes toHaveReturnedWith toHaveLastReturnedWith toHaveNthReturnedWith " +
    "toHaveResolved toHaveResolvedTimes toHaveResolvedWith toMatchSnapshot toMatchInlineSnapshot " +
    "toMatchFileSnapshot toThrowErrorMatchingSnapshot toThrowErrorMatchingInlineSnapshot " +
    "toBeCalled toBeCalledTimes toBeCalledWith lastCalledWith nthCalledWith toReturn toReturnTimes " +
    "toReturnWith lastReturnedWith nthReturnedWith"
  ).split(" "),
);

function callSignals(
  n: Node,
  scope: Scope,
  role: TreeRole,
  taint: (n: unknown) => boolean,
  patched: (n: Node, what: string) => void,
  add: (code: TreeSignal["code"], id: string, n: Node, what: string) => void,
): void {
  const callee = n.callee as Node;
  const args = n.arguments as Node[];
  const key = callee.type.endsWith("MemberExpression") ? keyOf(callee, scope) : undefined;
  const obj = key !== undefined ? (callee.object as Node) : undefined;
  // Object.assign(assert, …), Reflect.set(expect, …), Object.defineProperty(chai.Assertion.prototype, …)
  if (
    obj?.type === "Identifier" &&
    /^(?:Object|Reflect)$/.test(obj.name as string) &&
    DEFINE.test(key ?? "")
  ) {
    const target = args[0] && harnessPath(args[0], scope);
    if (target) patched(n, `${obj.name}.${key}(${target.join(".")}, …)`);
    // Object.assign(globalThis, { it: … }), Object.defineProperty(globalThis, "expect", …).
    // Names the gate cannot read (`Object.assign(globalThis, polyfills)`) are a polyfill's, not news.
    else if (isGlobalObject(args[0])) {
      const named =
        key === "assign"
          ? args
              .slice(1)
              .flatMap((a) =>
                a.type === "ObjectExpression"
                  ? (a.properties as Node[]).map((p) => keyOf(p, scope))
                  : [],
              )
          : [scope.stringOf(args[1])];
      const hit = named.find((k) => k !== undefined && RUNNER_GLOBALS.has(k));
      if (hit !== undefined) patched(n, `${obj.name}.${key}(globalThis, …) replaces ${hit}`);
    }
    return;
  }
  if (/^overwrite(?:Method|Property|ChainableMethod)$/.test(key ?? "")) {
    patched(n, `overwrites an assertion (${key})`);
    return;
  }
  const path = scope.pathOf(callee);
  const [root, member] = path ?? [];
  if ((root === "vi" || root === "jest") && path?.length === 2) {
    if (member === "spyOn" && args[0] && harnessPath(args[0], scope))
      patched(n, `${root}.spyOn on ${harnessPath(args[0], scope)?.join(".")}`);
    const mod = scope.stringOf(args[0]);
    if (
      /^(?:mock|doMock|unstable_mockModule|setMock)$/.test(member ?? "") &&
      mod &&
      RUNNER_MODULE.test(mod)
    )
      patched(n, `${root}.${member}("${mod}") replaces an assertion or runner module`);
    if (member === "stubGlobal" && mod && RUNNER_GLOBALS.has(mod))
      patched(n, `${root}.stubGlobal("${mod}")`);
    return;
  }
  if (root === "expect" && path?.length === 2) {
    if (member === "setState") patched(n, "expect.setState writes the runner's assertion state");
    if (member === "extend") {
      const replaced = replacedMatchers(args[0], scope);
      if (replaced) patched(n, `expect.extend replaces ${replaced}`);
    }
    return;
  }
  if (
    (key !== undefined && WRITE_FS.test(key)) ||
    (callee.type === "Identifier" && WRITE_FS.test(callee.name as string))
  ) {
    const fsName = key ?? (callee.name as string);
    if (fsName === "write" && key !== undefined && obj?.type !== "Identifier") return;
    if (args.some((a) => taint(a)))
      add(
        "runner-output-reached",
        "report-write",
        n,
        `${fsName}(…) writes to a path taken from the command line, the runner's environment, another process or a report's name`,
      );
    return;
  }
  // `execSync(\`mv forged.xml ${out}\`)`, `spawnSync("cp", [f, out])`: the same write, by a child.
  // Only a command that writes: a CLI re-running itself with `process.argv` is no tamper.
  const spawner = key ?? (callee.type === "Identifier" ? (callee.name as string) : undefined);
  if (
    spawner !== undefined &&
    CHILD_PROCESS.test(spawner) &&
    args.some((a) => taint(a)) &&
    stringFragments(n).some((f) => WRITE_COMMAND.test(f.text))
  )
    add(
      "runner-output-reached",
      "report-write",
      n,
      `${spawner}(…) runs a command that writes to a path taken from the command line, the runner's environment, another process or a report's name`,
    );
  void role;
}

const CHILD_PROCESS =
  /^(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|execa|execaSync|execaCommand|execaCommandSync)$/;
/** A shell command that writes a file: `mv`, `cp`, `ln`, `tee`, `install`, `rsync`, `dd`, a `>` redirect, or a shell that may do any of these. */
const WRITE_COMMAND = /^\s*(?:mv|cp|ln|tee|install|rsync|dd|sh|bash)\b|\s(?:mv|cp|ln|tee)\s|>\s*$/;

/** The built-in matchers an `expect.extend` argument replaces, or why it cannot be read; undefined when it adds only. */
function replacedMatchers(arg: Node | undefined, scope: Scope): string | undefined {
  if (!arg) return undefined;
  let obj = arg;
  if (arg.type === "Identifier") {
    const declared = scope.objects.get(arg.name as string);
    // A package's matchers (`import * as matchers from "jest-extended"`) add, by their own names.
    if (!declared) return undefined;
    obj = declared;
  }
  if (obj.type !== "ObjectExpression") return undefined;
  const names: string[] = [];
  for (const p of obj.properties as Node[]) {
    if (p.type === "SpreadElement") {
      names.push("matchers spread from an object the gate cannot read");
      continue;
    }
    const k = keyOf(p, scope);
    if (k === "?") names.push("a computed matcher name the gate cannot resolve");
    else if (k !== undefined && BUILT_IN_MATCHERS.has(k)) names.push(`the built-in ${k}`);
  }
  return names.length > 0 ? names.join(", ") : undefined;
}

// A report's name, as the runners' options spell it (not any `.xml`: a sitemap is no report).
const REPORT_FRAGMENT = /junit|outputFile|reporter|test-results|\/proc\//i;
const REPORT_ENV = /junit|report|result|vitest|jest|pytest|node_test/i;

/** Whether an expression carries a value from the command line, the runner's environment, another process or a report's name. */
function taintedBy(n: unknown, scope: Scope, tainted: ReadonlySet<string>): boolean {
  if (!isNode(n)) return false;
  let found = false;
  walk(n, (c, parents) => {
    if (found) return;
    const parent = parents.at(-1);
    if (c.type === "Identifier") {
      const isKey =
        parent &&
        ((parent.type.endsWith("MemberExpression") && parent.property === c && !parent.computed) ||
          (parent.type === "ObjectProperty" && parent.key === c && !parent.computed));
      if (!isKey && tainted.has(c.name as string)) found = true;
    } else if (c.type === "StringLiteral" || c.type === "TemplateElement") {
      const text =
        c.type === "StringLiteral"
          ? (c.value as string)
          : ((c.value as { cooked?: string }).cooked ?? "");
      if (REPORT_FRAGMENT.test(text)) found = true;
    } else if (c.type.endsWith("MemberExpression")) {
      // `process.env` inside `process.env.HOME` is read with its key, below.
      if (parent?.type.endsWith("MemberExpression") && parent.object === c) return;
      const path = scope.pathOf(c);
      if (path?.[0] !== "process") return;
      if (path[1] === "argv" || path[1] === "execArgv" || path[1] === "ppid") found = true;
      if (
        path[1] === "env" &&
        (path.length === 2 || path[2] === "?" || REPORT_ENV.test(path[2] ?? ""))
      )
        found = true;
    }
  });
  return found;
}

function boundNames(id: Node): string[] {
  const out: string[] = [];
  walk(id, (c, parents) => {
    const parent = parents.at(-1);
    if (c.type !== "Identifier") return;
    if (parent?.type === "ObjectProperty" && parent.key === c && parent.value !== c) return;
    out.push(c.name as string);
  });
  return out;
}

/** Every string and template fragment of the file, with its node. */
function stringFragments(program: Node): { text: string; node: Node }[] {
  const out: { text: string; node: Node }[] = [];
  walk(program, (n, parents) => {
    if (parents.some((p) => p.type === "ImportDeclaration")) return;
    if (n.type === "StringLiteral") out.push({ text: n.value as string, node: n });
    else if (n.type === "TemplateElement")
      out.push({ text: (n.value as { cooked?: string }).cooked ?? "", node: n });
  });
  return out;
}
