import { closeSync, lstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { kindOf } from "../formats/kinds/index.js";
import { openspecPlace } from "../formats/kinds/openspec.js";
import { type DirListing, dirListing } from "../fs/dir-listing.js";
import { archiveDirOf, globMatcher } from "./contract-path.js";

/**
 * Loud misconfiguration: what discovery alone cannot say. A glob that matches
 * nothing, contract-looking files that no glob reaches, and entries with a
 * contract's name that are not files would otherwise all read as "no
 * contract", which ends green with nothing checked.
 */
export interface DiscoveryAudit {
  /** Said, and the run goes on. */
  warnings: string[];
  /** The configuration is wrong: the CLI exits 2, the action fails. */
  errors: string[];
  /**
   * Nothing was found and the only contract-looking files lie under archive
   * directories (closed work, never gated): the one line that says so, and
   * the run is neutral (exit 0).
   */
  closed?: string;
}

export interface AuditInput {
  /** Absolute repository root (the action's working directory). */
  root: string;
  /** Every glob discovery used. */
  globs: readonly string[];
  /** The globs the user wrote (`--contracts`, a non-default `contracts` input): each must match something. */
  given: readonly string[];
  /** What discovery found, root-relative. */
  found: readonly string[];
  /** The run's directory reads, shared with discovery (which walked the same tree). */
  listing?: DirListing;
}

/** At most this many contract-looking files are named in a message. */
export const MAX_LISTED = 10;
/** Entries walked looking for contract-like files before giving up (a monorepo's tree is large). */
const MAX_WALKED = 50_000;
const SKIPPED = new Set([".git", "node_modules"]);

export async function auditDiscovery(input: AuditInput): Promise<DiscoveryAudit> {
  const warnings: string[] = [];
  const errors: string[] = [];
  const { root, globs, given, found } = input;
  const listing = input.listing ?? dirListing();

  // Entries a glob names that are not regular files (a directory called
  // phase-3-contract.json): discovery lists files only, so they vanish silently.
  const entries = globSync([...globs], {
    cwd: root,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    ignore: [...SKIPPED].map((d) => `**/${d}/**`),
    expandDirectories: false,
    fs: listing.globFs,
  });
  const listed = new Set(found);
  // Judged by the entry's own type, not by absence from discovery: discovery leaves out
  // regular files on purpose (a `tasks.md` read with the `spec.md` beside it).
  const notFiles = entries
    .map((e) => e.replace(/\/$/, ""))
    .filter((e) => !listed.has(e) && kindOf(e) !== undefined && !regularOrLink(join(root, e)));
  for (const path of [...new Set(notFiles)].sort()) {
    errors.push(
      `${path} has a contract's name but is a directory (or another entry that is not a regular file), so nothing in it is read; rename it, or move the contract file there`,
    );
  }

  // A negated glob (`!GATES.md`) leaves files out: it matches nothing by design.
  for (const g of given.filter((g) => !g.startsWith("!"))) {
    const matches = globMatcher([g]);
    if (!entries.some((e) => matches(e.replace(/\/$/, "")))) {
      warnings.push(
        `the glob '${g}' matches no file under ${root}; check its spelling and that it is relative to the repository root`,
      );
    }
  }

  const matchesAny = globMatcher(globs);
  const { strays, archived } = lookalikes(root, listing, matchesAny);
  if (strays.length === 0 && found.length === 0 && archived.length > 0) {
    const dirs = [...new Set(archived.map((a) => archiveDirOf(a.path)!))].sort();
    const shown = dirs.slice(0, MAX_LISTED).join(", ");
    const more = dirs.length > MAX_LISTED ? ` and ${dirs.length - MAX_LISTED} more` : "";
    return {
      warnings,
      errors,
      closed: `nothing in scope: the only contracts lie under archive directories (${shown}${more}), closed work the gate does not gate`,
    };
  }
  if (strays.length > 0) {
    const shown = strays.slice(0, MAX_LISTED);
    const more = strays.length > shown.length ? ` and ${strays.length - shown.length} more` : "";
    const suggested = [...new Set(shown.map((s) => s.glob))];
    const list = shown.map((s) => `${s.path} (${s.looks})`).join(", ");
    const fix = `add ${suggested.map((g) => `--contracts '${g}'`).join(" ")} (the action: add ${suggested.map((g) => `'${g}'`).join(", ")} to the \`contracts\` input)`;
    if (found.length === 0) {
      errors.push(
        `no contract matched the globs, but these files look like contracts: ${list}${more}; ${fix}`,
      );
    } else {
      warnings.push(
        `these files look like contracts but no glob includes them, so they are not gated: ${list}${more}; ${fix}`,
      );
    }
  }
  return { warnings, errors };
}

interface Lookalike {
  path: string;
  /** What it looks like and why: `a plan contract by its name`. */
  looks: string;
  /** A glob that would include it. */
  glob: string;
}

/**
 * Files that look like contracts of a known kind, by name (phase contracts,
 * quality reviews) or by their first bytes (an oracle contract's
 * `# CONTRACT` title, a phase contract's or planner plan's telltale keys),
 * and that no glob includes (those are never opened: discovery has them).
 */
function lookalikes(
  root: string,
  listing: DirListing,
  included: (path: string) => boolean,
): { strays: Lookalike[]; archived: Lookalike[] } {
  const out: Lookalike[] = [];
  // Closed work is never suggested (adding it to the globs would gate history); counted only.
  const archived: Lookalike[] = [];
  let walked = 0;
  const stack = [""];
  while (stack.length > 0 && walked < MAX_WALKED) {
    const dir = stack.pop()!;
    for (const e of listing.entries(dir === "" ? root : join(root, dir))) {
      walked++;
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) stack.push(path);
        continue;
      }
      if (!e.isFile() || (included(path) && archiveDirOf(path) === undefined)) continue;
      const found = lookalike(root, dir, e.name, path) ?? openspecLookalike(root, listing, path);
      if (found && archiveDirOf(found.path) !== undefined) archived.push(found);
      else if (found && !(found.path.endsWith("/") && out.some((o) => o.path === found.path))) {
        out.push(found);
      }
    }
  }
  return { strays: out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), archived };
}

/**
 * What makes a file look like a contract of a known kind: its name, or its
 * first 4 KiB (`head`, read only when a rule asks). First match wins; the
 * name rules come first, so most files are never opened. Exported so each
 * rule has a test (test/discover-lookalikes.test.ts).
 */
export interface LookalikeRule {
  id: string;
  /** What it looks like and why, as the message names it. */
  looks: string;
  /** `dir`: the file's directory, relative to the root (`""` at the root). */
  matches(name: string, head: () => string, dir: string): boolean;
  /** A glob that would include it: relative to the file's directory, or to the root with `fromRoot`. */
  glob(name: string, dir: string): string;
  fromRoot?: true;
}

export const LOOKALIKE_RULES: readonly LookalikeRule[] = [
  {
    id: "plan-contract-name",
    looks: "a plan contract by its name",
    matches: (name) => /^phase-[^/]+-contract\.json$/.test(name),
    glob: () => "phase-*-contract.json",
  },
  {
    id: "quality-review-name",
    looks: "a planner quality review by its name",
    matches: (name) => /^(?:.+-)?qr-[a-z-]+\.json$/.test(name),
    glob: () => "qr-*.json",
  },
  {
    id: "kiro-place",
    looks: "a Kiro spec by its place",
    matches: (name, _head, dir) =>
      name === "requirements.md" && /^(?:.*\/)?\.kiro\/specs\/[^/]+$/.test(dir),
    glob: (_name, dir) =>
      `${/^(.*\/)?\.kiro\/specs\//.exec(dir)?.[1] ?? ""}.kiro/specs/*/requirements.md`,
    fromRoot: true,
  },
  {
    id: "oracle-title",
    looks: "an oracle contract by its `# CONTRACT` title",
    matches: (name, head) =>
      name.endsWith(".md") &&
      /^# CONTRACT\b/.test(
        head()
          .replace(/^\uFEFF/, "")
          .trimStart(),
      ),
    glob: () => "*.md",
  },
  {
    id: "plan-contract-key",
    looks: "a plan contract by its `source_plan_hash`",
    matches: (name, head) => name.endsWith(".json") && /"source_plan_hash"\s*:/.test(head()),
    glob: (name) => name,
  },
  {
    id: "planner-plan-keys",
    looks: "a planner plan by its keys",
    matches: (name, head) =>
      name.endsWith(".json") &&
      /"milestones"\s*:/.test(head()) &&
      /"waves"\s*:|"planning_context"\s*:/.test(head()),
    glob: (name) => name,
  },
];

function lookalike(root: string, dir: string, name: string, path: string): Lookalike | undefined {
  let text: string | undefined;
  const head = () => {
    text ??= firstBytes(join(root, path));
    return text;
  };
  const rule = LOOKALIKE_RULES.find((r) => r.matches(name, head, dir));
  if (rule === undefined) return undefined;
  const glob = rule.glob(name, dir);
  return {
    path,
    looks: rule.looks,
    glob: dir === "" || rule.fromRoot ? glob : `${dir}/${glob}`,
  };
}

/**
 * OpenSpec trees by their place: an active change's `proposal.md` or a main
 * spec no glob includes (the globs were narrowed), and a change folder with
 * no `proposal.md`, which names a change to the gate (named once, as the folder).
 */
function openspecLookalike(root: string, listing: DirListing, path: string): Lookalike | undefined {
  const place = openspecPlace(path);
  if (place.kind === "main-spec") {
    return {
      path,
      looks: "an OpenSpec main spec by its place",
      glob: `${place.root}openspec/specs/**/spec.md`,
    };
  }
  if (place.kind !== "change" || !path.endsWith(".md")) return undefined;
  const glob = `${place.root}openspec/changes/*/proposal.md`;
  if (place.rest === "proposal.md") {
    return { path, looks: "an OpenSpec change by its place", glob };
  }
  const folder = `${place.root}openspec/changes/${place.id}/`;
  if (listing.entries(join(root, folder)).some((e) => e.name === "proposal.md")) return undefined;
  return {
    path: folder,
    looks: "an OpenSpec change with no proposal.md, which names a change to the gate: add one",
    glob,
  };
}

/** The first 4 KiB of a file as text ("" when it cannot be read). */
function firstBytes(abs: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(abs, "r");
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A regular file or a symbolic link (the loader refuses links with its own message); gone counts as a file. */
function regularOrLink(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isFile() || st.isSymbolicLink();
  } catch {
    return true;
  }
}
