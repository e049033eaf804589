import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { lexists } from "../fs/lexists.js";
import { gitConfigFiles } from "./git-config.js";

/**
 * The git metadata a check's view holds, found on disk (the gate runs no git
 * here). Every directory is mounted read-only onto itself, so a check can
 * neither write it (objects, `refs/replace`, hooks, `info/`, config) nor
 * rename, replace or shadow it: a mount point cannot be moved.
 */
export interface GitLayout {
  /** The work tree's top level when it lies above the root the gate was given. */
  topLevel?: string;
  /** Git directories (and common directories), real paths; none inside another. */
  dirs: string[];
  /** `.git` files (linked worktrees, submodules) inside the view, kept as they are. */
  files: string[];
  /** Config files whose sanitized copies checks see instead. */
  configs: string[];
  /** Files in the view that match `CREDENTIAL_FILES`: hidden. */
  credentialFiles: string[];
}

/**
 * Credential files that well-known actions write into the workspace, where a
 * check would find them: `google-github-actions/auth` writes its key as
 * `gha-creds-<hex>.json` at the workspace root (docs/security.md).
 */
export const CREDENTIAL_FILES: readonly { pattern: RegExp; shown: string; why: string }[] = [
  {
    pattern: /^gha-creds-[0-9a-z]+\.json$/i,
    shown: "gha-creds-*.json",
    why: "google-github-actions/auth: a service-account key or federated token",
  },
];

/** The top level of the work tree holding `root`: the nearest directory with a `.git` entry. */
export function gitTopLevel(root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    if (lexists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Walks the visible part of the repository (the top level, or the root when
 * there is no repository) once, for every `.git` entry and credential file.
 * Symlinks are not followed: what they point to is outside the view or in it anyway.
 */
export function gitLayout(root: string): GitLayout {
  const top = gitTopLevel(root);
  const walkFrom = top ?? root;
  const gitEntries: string[] = [];
  const credentialFiles: string[] = [];
  const stack = [walkFrom];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.name === ".git") {
        if (e.isDirectory() || e.isFile()) gitEntries.push(path);
        continue;
      }
      if (e.isDirectory()) stack.push(path);
      else if (e.isFile() && CREDENTIAL_FILES.some((c) => c.pattern.test(e.name)))
        credentialFiles.push(path);
    }
  }
  const dirs = new Set<string>();
  const files: string[] = [];
  const configs = new Set<string>();
  for (const entry of gitEntries) {
    const isDir = lstatSync(entry).isDirectory();
    if (!isDir) files.push(entry);
    let gitDir: string;
    try {
      gitDir = realpathSync(isDir ? entry : pointedGitDir(entry));
    } catch {
      continue; // a .git file pointing nowhere: git cannot use it either
    }
    dirs.add(gitDir);
    const common = commonDir(gitDir);
    if (common !== undefined) dirs.add(common);
    for (const c of gitConfigFiles(dirname(entry))) configs.add(c);
  }
  return {
    ...(top !== undefined && top !== root && { topLevel: top }),
    dirs: outermost([...dirs]),
    files,
    configs: [...configs],
    credentialFiles,
  };
}

/** `gitdir: <path>` of a `.git` file, relative to the file's directory. */
function pointedGitDir(dotGit: string): string {
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
  if (!m) throw new Error("not a gitdir file");
  return resolve(dirname(dotGit), m[1]!);
}

function commonDir(gitDir: string): string | undefined {
  try {
    return realpathSync(resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim()));
  } catch {
    return undefined;
  }
}

/** Drops every path inside another: a read-only mount covers what lies below it. */
function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(`${q}/`)));
}
