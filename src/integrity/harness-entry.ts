import { parse as parseToml } from "smol-toml";

/**
 * The part of a file a check uses: the whole file, one `package.json`
 * key (`scripts.test`, `jest`), one make target's rule, one INI section, one
 * TOML table. Comparing the entry, not the file, lets a PR change an
 * unrelated script or target without a finding.
 */
export type HarnessEntry =
  | { kind: "file" }
  | { kind: "json"; key: readonly string[] }
  | { kind: "make-target"; target: string }
  | { kind: "ini-section"; section: string }
  | { kind: "toml-table"; table: readonly string[] };

/** How a finding names the entry: `scripts.test`, `target check`, `[pytest]`, `the whole file`. */
export function entryName(e: HarnessEntry): string {
  switch (e.kind) {
    case "file":
      return "the whole file";
    case "json":
      return e.key.join(".");
    case "make-target":
      return `target ${e.target}`;
    case "ini-section":
      return `[${e.section}]`;
    case "toml-table":
      return `[${e.table.join(".")}]`;
  }
}

/** Where the entry starts in `text` (1-based), for the finding's line; 1 when not found. */
export function entryLine(e: HarnessEntry, text: string | undefined): number {
  if (text === undefined) return 1;
  const lines = text.split("\n");
  const find = (re: RegExp) => {
    const i = lines.findIndex((l) => re.test(l));
    return i < 0 ? 1 : i + 1;
  };
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  switch (e.kind) {
    case "file":
      return 1;
    case "json":
      return find(new RegExp(`"${esc(e.key.at(-1) ?? "")}"\\s*:`));
    case "make-target":
      return find(new RegExp(`^(?:[^:=#\\t]*\\s)?${esc(e.target)}(?:\\s[^:=#]*)?::?(?!=)`));
    case "ini-section":
      return find(new RegExp(`^\\s*\\[${esc(e.section)}\\]`));
    case "toml-table":
      return find(new RegExp(`^\\s*\\[${esc(e.table.join("."))}\\]`));
  }
}

/**
 * The entry's text in `text` (a file's content), or undefined when the file
 * or the entry is absent. A file that does not parse yields its whole text:
 * breaking a file's syntax is a change of every entry in it. Pure.
 */
export function entryText(e: HarnessEntry, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  switch (e.kind) {
    case "file":
      return text;
    case "json": {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        return text;
      }
      for (const k of e.key) v = isRecord(v) ? v[k] : undefined;
      return v === undefined ? undefined : typeof v === "string" ? v : JSON.stringify(v, null, 2);
    }
    case "make-target":
      return makeRule(text, e.target);
    case "ini-section":
      return iniSection(text, e.section);
    case "toml-table": {
      let v: unknown;
      try {
        v = parseToml(text);
      } catch {
        return text;
      }
      for (const k of e.table) v = isRecord(v) ? v[k] : undefined;
      return v === undefined ? undefined : JSON.stringify(v, null, 2);
    }
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A Makefile's logical lines (backslash continuations joined), with their first line number. */
export function makeLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const raw = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < raw.length; i++) {
    const start = i;
    let l = raw[i] as string;
    while (l.endsWith("\\") && i + 1 < raw.length) l = `${l.slice(0, -1)} ${raw[++i] as string}`;
    out.push({ text: l, line: start + 1 });
  }
  return out;
}

/** A rule line `targets: prerequisites` (not `:=`/`::=` assignments), its targets and prerequisites. */
export function ruleOf(line: string): { targets: string[]; prereqs: string[] } | undefined {
  if (line.startsWith("\t")) return undefined;
  const m = /^([^:=#\t][^:=#]*?)\s*::?(?![=])\s*([^=#;]*)(?:;.*)?$/.exec(
    line.replace(/\s+#.*$/, ""),
  );
  if (!m) return undefined;
  const targets = (m[1] as string).trim().split(/\s+/).filter(Boolean);
  if (
    targets.length === 0 ||
    /^(?:export|override|define|ifeq|ifneq|ifdef|ifndef)$/.test(targets[0] as string)
  )
    return undefined;
  return { targets, prereqs: (m[2] as string).trim().split(/\s+/).filter(Boolean) };
}

/** Every rule naming `target` with its recipe lines (tab-indented), joined; undefined when none. */
export function makeRule(text: string, target: string): string | undefined {
  const lines = makeLines(text);
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const rule = ruleOf((lines[i] as { text: string }).text);
    if (!rule?.targets.includes(target)) continue;
    parts.push((lines[i] as { text: string }).text);
    for (let j = i + 1; j < lines.length; j++) {
      const l = (lines[j] as { text: string }).text;
      if (l.startsWith("\t")) parts.push(l);
      else if (l.trim() !== "" && !l.trimStart().startsWith("#")) break;
    }
  }
  return parts.length === 0 ? undefined : parts.join("\n");
}

/** The recipe lines of `target`'s rules, tab removed and make's `@`/`-`/`+` prefixes dropped. */
export function makeRecipe(text: string, target: string): string[] {
  return (makeRule(text, target) ?? "")
    .split("\n")
    .filter((l) => l.startsWith("\t"))
    .map((l) => l.slice(1).replace(/^[@+-]+/, ""));
}

/** The first target that does not start with `.`: what a bare `make` builds. */
export function defaultTarget(text: string): string | undefined {
  for (const { text: l } of makeLines(text)) {
    const rule = ruleOf(l);
    const t = rule?.targets.find((x) => !x.startsWith(".") && !x.includes("%"));
    if (t !== undefined) return t;
  }
  return undefined;
}

/** An INI file's section `[name]` up to the next section header; undefined when absent. */
export function iniSection(text: string, section: string): string | undefined {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const start = lines.findIndex((l) => l.trim() === `[${section}]`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && !/^\s*\[[^\]]+\]\s*$/.test(lines[end] as string)) end++;
  return lines.slice(start, end).join("\n").trimEnd();
}
