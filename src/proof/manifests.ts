import { parse as parseToml, TomlError } from "smol-toml";
import { parse as parseYaml } from "yaml";

/**
 * One manifest parsed into the packages it makes a project install. `id` is
 * what gets installed, so that renaming or re-pointing an entry is a new
 * package: an npm alias `"a": "npm:b@1"` installs `b`; a git, URL or path
 * source is the source itself; a Cargo `package = "b"` installs `b`; Go's
 * `replace` and Cargo's `[patch]` swap code in and count as entries of their own.
 */
export interface ManifestEntry {
  id: string;
  /** The key or requirement as the manifest writes it. */
  name: string;
  /** Where it is declared, e.g. `devDependencies`, `project.optional-dependencies.docs`. */
  section: string;
  /** Where the parser knows it (line-based formats); otherwise found by name. */
  line?: number;
}

export type ManifestRead =
  | { ok: true; entries: ManifestEntry[] }
  | { ok: false; message: string; line: number };

export type ManifestKind =
  | "package.json"
  | "requirements"
  | "pyproject"
  | "go.mod"
  | "cargo"
  | "setup.py"
  | "setup.cfg"
  | "pipfile"
  | "package-lock"
  | "pnpm-lock"
  | "yarn.lock"
  | "toml-lock";

/** The manifest kind of a repo-relative path, by its file name; `undefined` for any other file. */
export function manifestKind(path: string): ManifestKind | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name === "package.json") return "package.json";
  if (/^requirements.*\.txt$/i.test(name)) return "requirements";
  if (name === "pyproject.toml") return "pyproject";
  if (name === "go.mod") return "go.mod";
  if (name === "Cargo.toml") return "cargo";
  if (name === "setup.py") return "setup.py";
  if (name === "setup.cfg") return "setup.cfg";
  if (name === "Pipfile") return "pipfile";
  if (name === "package-lock.json" || name === "npm-shrinkwrap.json") return "package-lock";
  if (name === "pnpm-lock.yaml") return "pnpm-lock";
  if (name === "yarn.lock") return "yarn.lock";
  if (
    name === "poetry.lock" ||
    name === "uv.lock" ||
    name === "Pipfile.lock" ||
    name === "Cargo.lock"
  )
    return "toml-lock";
  return undefined;
}

class ManifestError extends Error {
  constructor(
    message: string,
    readonly line = 1,
  ) {
    super(message);
  }
}

export function readManifest(kind: ManifestKind, text: string): ManifestRead {
  try {
    const entries =
      kind === "package.json"
        ? packageJson(text)
        : kind === "requirements"
          ? requirementsTxt(text)
          : kind === "go.mod"
            ? goMod(text)
            : kind === "pyproject" || kind === "cargo"
              ? tomlManifest(kind, text)
              : otherManifest(kind, text);
    return { ok: true, entries };
  } catch (e) {
    if (e instanceof ManifestError) return { ok: false, message: e.message, line: e.line };
    if (e instanceof TomlError) return { ok: false, message: firstLine(e.message), line: e.line };
    throw e;
  }
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}

const NPM_MAPS = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
] as const;
// npm specs that name no registry version: git, URLs, tarballs, local paths, GitHub shorthands.
const NPM_SOURCE =
  /^(?:git\+|git:|github:|gitlab:|bitbucket:|gist:|https?:|file:|link:|\.{0,2}\/|[\w.-]+\/[\w.-]+(?:#.*)?$)/;

function packageJson(text: string): ManifestEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec(String((e as Error).message));
    throw new ManifestError(
      `package.json is not valid JSON: ${(e as Error).message}`,
      m ? lineAt(text, Number(m[1])) : 1,
    );
  }
  if (!isRecord(doc)) throw new ManifestError("package.json is not a JSON object");
  const out: ManifestEntry[] = [...npmOverrides(doc, text)];
  for (const section of NPM_MAPS) {
    const map = doc[section];
    if (map === undefined) continue;
    if (!isRecord(map))
      throw new ManifestError(`"${section}" is not an object`, lineOfKey(text, section));
    for (const [name, spec] of Object.entries(map)) {
      if (typeof spec !== "string") {
        throw new ManifestError(
          `"${section}.${name}" is not a version string`,
          lineOfKey(text, name),
        );
      }
      const alias = /^npm:((?:@[^/@]+\/)?[^@]+)/.exec(spec);
      const id = alias ? (alias[1] as string) : NPM_SOURCE.test(spec) ? `${name} (${spec})` : name;
      out.push({ id, name, section });
    }
  }
  return out;
}

// PEP 508's name, normalised the PEP 503 way (`Foo_Bar` and `foo-bar` are one package).
const PEP508_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/;
function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

function requirementsTxt(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i] as string;
    while (line.endsWith("\\") && i + 1 < lines.length)
      line = line.slice(0, -1) + (lines[++i] as string);
    const req = line.replace(/(^|\s)#.*$/, "").trim();
    if (req === "") continue;
    if (req.startsWith("-")) {
      // `-r`, `-c`, `-e`, `--index-url`, `--extra-index-url`, `-f`: each brings packages (or
      // where they come from) the file does not name; a new one is a new source of packages.
      out.push({ id: req.replace(/\s+/g, " "), name: req, section: "options", line: start + 1 });
      continue;
    }
    const m = PEP508_NAME.exec(req);
    if (!m) throw new ManifestError(`line ${start + 1} is not a requirement: ${req}`, start + 1);
    const url = /@\s*(\S+:\/\/\S+)/.exec(req)?.[1];
    const name = pep503(m[1] as string);
    out.push({
      id: url ? `${name} (${url})` : name,
      name: m[1] as string,
      section: "requirements",
      line: start + 1,
    });
  }
  return out;
}

function goMod(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const lines = text.split(/\r?\n/);
  let block: "require" | "replace" | undefined;
  let blockLine = 0;
  const entry = (directive: "require" | "replace", body: string, line: number) => {
    const fields = body.trim().split(/\s+/);
    if (directive === "require") {
      if (fields.length < 2)
        throw new ManifestError(
          `go.mod line ${line}: require needs a module path and a version`,
          line,
        );
      out.push({ id: fields[0] as string, name: fields[0] as string, section: "require", line });
    } else {
      const arrow = fields.indexOf("=>");
      if (arrow < 1 || arrow === fields.length - 1)
        throw new ManifestError(`go.mod line ${line}: replace needs "old => new"`, line);
      out.push({
        id: `replace ${fields.join(" ")}`,
        name: fields[0] as string,
        section: "replace",
        line,
      });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\/\/.*$/, "").trim();
    if (line === "") continue;
    if (block) {
      if (line === ")") block = undefined;
      else entry(block, line, i + 1);
      continue;
    }
    const m = /^(require|replace)\b\s*(.*)$/.exec(line);
    if (!m) continue;
    const directive = m[1] as "require" | "replace";
    if (m[2] === "(") {
      block = directive;
      blockLine = i + 1;
    } else entry(directive, m[2] as string, i + 1);
  }
  if (block)
    throw new ManifestError(
      `go.mod: the ${block} block opened on line ${blockLine} is never closed`,
      blockLine,
    );
  return out;
}

function tomlManifest(kind: "pyproject" | "cargo", text: string): ManifestEntry[] {
  const doc = parseToml(text) as Record<string, unknown>;
  const out: ManifestEntry[] = [];
  const at = (path: string[]): unknown =>
    path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), doc);
  if (kind === "pyproject") {
    const pep508List = (value: unknown, section: string) => {
      if (value === undefined) return;
      if (!Array.isArray(value))
        throw new ManifestError(
          `${section} is not an array`,
          lineOfKey(text, section.split(".").at(-1) ?? ""),
        );
      for (const req of value) {
        if (isRecord(req) && typeof req["include-group"] === "string") continue; // PEP 735 reuse of another group
        const m = typeof req === "string" ? PEP508_NAME.exec(req.trim()) : null;
        if (!m)
          throw new ManifestError(
            `${section}: ${JSON.stringify(req)} is not a requirement`,
            lineOfKey(text, String(req)),
          );
        out.push({ id: pep503(m[1] as string), name: m[1] as string, section });
      }
    };
    pep508List(at(["project", "dependencies"]), "project.dependencies");
    for (const [table, section] of [
      [at(["project", "optional-dependencies"]), "project.optional-dependencies"],
      [at(["dependency-groups"]), "dependency-groups"],
    ] as const) {
      if (table === undefined) continue;
      if (!isRecord(table)) throw new ManifestError(`${section} is not a table`);
      for (const [group, list] of Object.entries(table)) pep508List(list, `${section}.${group}`);
    }
    pep508List(at(["build-system", "requires"]), "build-system.requires");
    const poetryTable = (value: unknown, section: string) => {
      if (value === undefined) return;
      if (!isRecord(value)) throw new ManifestError(`${section} is not a table`);
      for (const [name, spec] of Object.entries(value)) {
        if (name.toLowerCase() === "python") continue; // the interpreter, not a package
        out.push({ id: sourced(pep503(name), spec), name, section });
      }
    };
    poetryTable(at(["tool", "poetry", "dependencies"]), "tool.poetry.dependencies");
    poetryTable(at(["tool", "poetry", "dev-dependencies"]), "tool.poetry.dev-dependencies");
    const groups = at(["tool", "poetry", "group"]);
    if (groups !== undefined) {
      if (!isRecord(groups)) throw new ManifestError("tool.poetry.group is not a table");
      for (const [g, t] of Object.entries(groups)) {
        poetryTable(
          isRecord(t) ? t.dependencies : undefined,
          `tool.poetry.group.${g}.dependencies`,
        );
      }
    }
    return out;
  }
  const cargoTable = (value: unknown, section: string) => {
    if (value === undefined) return;
    if (!isRecord(value)) throw new ManifestError(`[${section}] is not a table`);
    for (const [name, spec] of Object.entries(value)) {
      const real = isRecord(spec) && typeof spec.package === "string" ? spec.package : name;
      out.push({ id: sourced(real, spec), name, section });
    }
  };
  const families = [
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "dev_dependencies",
    "build_dependencies",
  ];
  for (const f of families) cargoTable(at([f]), f);
  cargoTable(at(["workspace", "dependencies"]), "workspace.dependencies");
  const target = at(["target"]);
  if (isRecord(target)) {
    for (const [cfg, t] of Object.entries(target)) {
      for (const f of families) cargoTable(isRecord(t) ? t[f] : undefined, `target.${cfg}.${f}`);
    }
  }
  for (const [table, section] of [
    [at(["patch"]), "patch"],
    [at(["replace"]), "replace"],
  ] as const) {
    if (!isRecord(table)) continue;
    for (const [registry, entries] of Object.entries(table)) {
      if (section === "replace") cargoTable({ [registry]: entries }, section);
      else cargoTable(entries, `patch.${registry}`);
    }
  }
  return out.map((e) =>
    e.section.startsWith("patch") || e.section === "replace"
      ? { ...e, id: `${e.section} ${e.id}` }
      : e,
  );
}

// A git or path source installs other code than the registry's package of that name.
function sourced(name: string, spec: unknown): string {
  if (!isRecord(spec)) return name;
  for (const key of ["git", "path", "url"]) {
    if (typeof spec[key] === "string") return `${name} (${key}: ${spec[key]})`;
  }
  return name;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

/** The first line naming `key` (quoted, or as a bare TOML key); 1 when none does. */
export function lineOfKey(text: string, key: string): number {
  if (key === "") return 1;
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`["']${esc}["'\\s=:<>~!;\\[,]|^\\s*${esc}\\s*=`, "m").exec(text);
  return m ? lineAt(text, m.index) : 1;
}

/** An npm spec's id: an alias installs its target; a git, URL or path spec is its source. */
function npmId(name: string, spec: string): string {
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)/.exec(spec);
  return alias ? (alias[1] as string) : NPM_SOURCE.test(spec) ? `${name} (${spec})` : name;
}

/**
 * `overrides` (npm, nested), `resolutions` (yarn), `pnpm.overrides` and
 * `bundleDependencies`: each swaps in or ships a package the dependency maps
 * do not show. An override is an entry of its own; pointed at an alias or a
 * source, it installs that instead, so re-pointing one is a new dependency.
 */
function npmOverrides(doc: Record<string, unknown>, text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const walk = (map: unknown, section: string, prefix: string) => {
    if (map === undefined) return;
    if (!isRecord(map))
      throw new ManifestError(`"${section}" is not an object`, lineOfKey(text, section));
    for (const [name, spec] of Object.entries(map)) {
      const key = prefix === "" ? name : `${prefix}>${name}`;
      if (isRecord(spec)) walk(spec, section, key);
      else if (typeof spec === "string") {
        // npm's "." inside a nested override is the parent itself.
        const target = name === "." ? prefix : key;
        out.push({
          id: `${section} ${target} → ${npmId(target, spec)}`,
          name: name === "." ? prefix : name,
          section,
        });
      } else
        throw new ManifestError(
          `"${section}.${key}" is not a version string`,
          lineOfKey(text, name),
        );
    }
  };
  walk(doc.overrides, "overrides", "");
  walk(doc.resolutions, "resolutions", "");
  walk(isRecord(doc.pnpm) ? doc.pnpm.overrides : undefined, "pnpm.overrides", "");
  for (const section of ["bundleDependencies", "bundledDependencies"]) {
    const list = doc[section];
    if (list === undefined || typeof list === "boolean") continue;
    if (!Array.isArray(list))
      throw new ManifestError(`"${section}" is not an array`, lineOfKey(text, section));
    for (const name of list)
      out.push({ id: `bundled ${String(name)}`, name: String(name), section });
  }
  return out;
}

/** setup.py, setup.cfg, Pipfile and the lockfiles: the packages each makes a project install. */
function otherManifest(kind: ManifestKind, text: string): ManifestEntry[] {
  switch (kind) {
    case "setup.py":
      return setupPy(text);
    case "setup.cfg":
      return setupCfg(text);
    case "pipfile":
      return pipfile(text);
    case "package-lock":
      return packageLock(text);
    case "pnpm-lock":
      return pnpmLock(text);
    case "yarn.lock":
      return yarnLock(text);
    default:
      return tomlLock(text);
  }
}

function pep508(req: string, section: string, line?: number): ManifestEntry | undefined {
  const m = PEP508_NAME.exec(req.trim());
  if (!m) return undefined;
  const url = /@\s*(\S+:\/\/\S+)/.exec(req)?.[1];
  const name = pep503(m[1] as string);
  return {
    id: url ? `${name} (${url})` : name,
    name: m[1] as string,
    section,
    ...(line ? { line } : {}),
  };
}

/**
 * setup.py is a program: the string literals inside `install_requires=[…]`,
 * `setup_requires`, `tests_require` and `extras_require` are read, and a
 * list built any other way (a variable, a file read) is an entry of its own
 * saying so, since the gate cannot see what it installs.
 */
function setupPy(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  for (const m of text.matchAll(
    /\b(install_requires|setup_requires|tests_require|extras_require)\s*=\s*/g,
  )) {
    const section = m[1] as string;
    const start = (m.index ?? 0) + m[0].length;
    const open = text[start];
    if (open !== "[" && open !== "{") {
      out.push({ id: `${section} (computed)`, name: section, section, line: lineAt(text, start) });
      continue;
    }
    const close = open === "[" ? "]" : "}";
    let depth = 0;
    let end = start;
    for (; end < text.length; end++) {
      if (text[end] === open) depth++;
      else if (text[end] === close && --depth === 0) break;
    }
    const body = text.slice(start, end);
    for (const s of body.matchAll(/(["'])([^"'\n]+)\1/g)) {
      const e = pep508(s[2] as string, section, lineAt(text, start + (s.index ?? 0)));
      if (e) out.push(e);
    }
  }
  return out;
}

function setupCfg(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const lines = text.split(/\r?\n/);
  let section = "";
  let key: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    const sec = /^\s*\[([^\]]+)\]/.exec(l);
    if (sec) {
      section = (sec[1] as string).trim();
      key = undefined;
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(l);
    if (kv) {
      const k = kv[1] as string;
      const wanted =
        (section === "options" && /^(install_requires|setup_requires|tests_require)$/.test(k)) ||
        section === "options.extras_require";
      key = wanted ? `${section}.${k}` : undefined;
      if (key && (kv[2] as string).trim() !== "") {
        const e = pep508(kv[2] as string, key, i + 1);
        if (e) out.push(e);
      }
      continue;
    }
    if (key && /^\s+\S/.test(l) && !l.trim().startsWith("#")) {
      const e = pep508(l.trim(), key, i + 1);
      if (e) out.push(e);
    }
  }
  return out;
}

function pipfile(text: string): ManifestEntry[] {
  const doc = parseToml(text) as Record<string, unknown>;
  const out: ManifestEntry[] = [];
  for (const section of ["packages", "dev-packages"]) {
    const t = doc[section];
    if (t === undefined) continue;
    if (!isRecord(t)) throw new ManifestError(`[${section}] is not a table`);
    for (const [name, spec] of Object.entries(t))
      out.push({ id: sourced(pep503(name), spec), name, section });
  }
  const sources = doc.source;
  if (Array.isArray(sources))
    for (const src of sources)
      if (isRecord(src) && typeof src.url === "string")
        out.push({ id: `source ${src.url}`, name: src.url, section: "source" });
  return out;
}

/** package-lock.json (v1 `dependencies`, v2/v3 `packages`): every package it installs, by name. */
function packageLock(text: string): ManifestEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ManifestError(`package-lock.json is not valid JSON: ${(e as Error).message}`);
  }
  if (!isRecord(doc)) throw new ManifestError("package-lock.json is not a JSON object");
  const out: ManifestEntry[] = [];
  if (isRecord(doc.packages)) {
    for (const [path, v] of Object.entries(doc.packages)) {
      if (path === "") continue;
      const name =
        isRecord(v) && typeof v.name === "string" ? v.name : path.replace(/^.*node_modules\//, "");
      const resolved =
        isRecord(v) && typeof v.resolved === "string" && !/^https:\/\/registry\./.test(v.resolved)
          ? v.resolved
          : undefined;
      out.push({ id: resolved ? `${name} (${resolved})` : name, name, section: "packages" });
    }
  } else if (isRecord(doc.dependencies)) {
    const walk = (deps: Record<string, unknown>) => {
      for (const [name, v] of Object.entries(deps)) {
        out.push({ id: name, name, section: "dependencies" });
        if (isRecord(v) && isRecord(v.dependencies)) walk(v.dependencies);
      }
    };
    walk(doc.dependencies);
  }
  return out;
}

/** pnpm-lock.yaml: the `packages` keys (`/name@1.0.0`, `name@1.0.0`, `/name/1.0.0`), by name. */
function pnpmLock(text: string): ManifestEntry[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ManifestError(`pnpm-lock.yaml does not parse: ${firstLine((e as Error).message)}`);
  }
  if (!isRecord(doc)) return [];
  const out: ManifestEntry[] = [];
  for (const key of Object.keys(isRecord(doc.packages) ? doc.packages : {})) {
    const k = key.replace(/^\//, "");
    const m = /^((?:@[^/@]+\/)?[^@/(]+)[@/]/.exec(k);
    const name = m ? (m[1] as string) : k;
    out.push({ id: name, name, section: "packages", line: lineOfKey(text, key) });
  }
  return out;
}

/** yarn.lock (classic and berry): each entry's header names the packages it resolves, by name. */
function yarnLock(text: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (
      l === "" ||
      l.startsWith(" ") ||
      l.startsWith("#") ||
      !l.endsWith(":") ||
      l.startsWith("__metadata")
    )
      continue;
    for (const spec of l.slice(0, -1).split(",")) {
      const s = spec.trim().replace(/^"|"$/g, "");
      const m = /^((?:@[^/@]+\/)?[^@]+)@/.exec(s);
      if (!m) continue;
      const target = /@npm:((?:@[^/@]+\/)?[^@]+)@/.exec(s)?.[1];
      const name = target ?? (m[1] as string);
      out.push({ id: name, name, section: "lock", line: i + 1 });
    }
  }
  return out;
}

/** poetry.lock, uv.lock, Cargo.lock (`[[package]]` tables) and Pipfile.lock (JSON): every package, by name. */
function tomlLock(text: string): ManifestEntry[] {
  if (text.trimStart().startsWith("{")) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new ManifestError(`the lockfile is not valid JSON: ${(e as Error).message}`);
    }
    const out: ManifestEntry[] = [];
    for (const section of ["default", "develop"]) {
      const t = isRecord(doc) ? doc[section] : undefined;
      if (isRecord(t))
        for (const name of Object.keys(t)) out.push({ id: pep503(name), name, section });
    }
    return out;
  }
  const doc = parseToml(text) as Record<string, unknown>;
  const pkgs = Array.isArray(doc.package) ? doc.package : [];
  return pkgs.flatMap((p) =>
    isRecord(p) && typeof p.name === "string"
      ? [
          {
            id: sourcedLock(p.name, p.source),
            name: p.name,
            section: "package",
            line: lineOfKey(text, p.name),
          },
        ]
      : [],
  );
}

function sourcedLock(name: string, source: unknown): string {
  if (isRecord(source)) {
    for (const key of ["git", "path", "url", "directory", "editable"])
      if (typeof source[key] === "string") return `${name} (${key}: ${source[key]})`;
  }
  if (typeof source === "string" && !source.startsWith("registry+")) return `${name} (${source})`;
  return name;
}
