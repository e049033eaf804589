import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * A git config as checks see it: `actions/checkout` persists the job token
 * there (`http.<url>.extraheader = AUTHORIZATION: basic …`), remotes can
 * carry `https://user:token@host` URLs, and `credential.*` names a helper
 * that hands out stored passwords. All three are dropped, and so are
 * `include`/`includeIf` sections (they would pull in a file no one
 * sanitized); the rest stays, so git inside a check behaves as on the
 * runner. Conservative by line: a continuation line of a dropped value is
 * dropped too.
 */
export function sanitizeGitConfig(text: string): string {
  const out: string[] = [];
  let dropping = false;
  let droppedSection = false;
  for (const line of text.split("\n")) {
    if (dropping) {
      dropping = line.trimEnd().endsWith("\\");
      continue;
    }
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)/.exec(line);
    if (header) droppedSection = /^(credential|include|includeif)(\.|$)/i.test(header[1]!);
    if (droppedSection || /^\s*extraheader\s*(=|$)/i.test(line)) {
      dropping = line.trimEnd().endsWith("\\");
      continue;
    }
    // userinfo in any URL: scheme://user:secret@host → scheme://host
    out.push(line.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s"]+@/gi, "$1"));
  }
  return out.join("\n");
}

/**
 * Every git config file of the working tree that may hold a persisted token:
 * the repository's own (`.git/config`, or through a `.git` file of a linked
 * worktree, its common directory's) and each submodule's under
 * `.git/modules/` (checkout persists the token there too). Real paths that exist.
 */
export function gitConfigFiles(root: string): string[] {
  const dotGit = join(root, ".git");
  let gitDir: string;
  try {
    gitDir = statSync(dotGit).isDirectory() ? dotGit : pointedGitDir(dotGit, root);
  } catch {
    return [];
  }
  const common = commonDir(gitDir);
  const found = new Set<string>();
  for (const dir of [gitDir, common]) {
    for (const name of ["config", "config.worktree"]) {
      if (existsSync(join(dir, name))) found.add(join(dir, name));
    }
  }
  collectModules(join(common, "modules"), found, 0);
  return [...found];
}

/** `gitdir: <path>` of a `.git` file, relative to the tree. */
function pointedGitDir(dotGit: string, root: string): string {
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
  if (!m) throw new Error("not a gitdir file");
  return resolve(root, m[1]!);
}

function commonDir(gitDir: string): string {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return gitDir;
  }
}

/** Submodule git dirs nest (`modules/a/modules/b`); a bounded walk finds their configs. */
function collectModules(dir: string, found: Set<string>, depth: number): void {
  if (depth > 6) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const sub = join(dir, name);
    if (existsSync(join(sub, "config"))) found.add(join(sub, "config"));
    collectModules(join(sub, "modules"), found, depth + 1);
    // Submodule names may contain slashes: `modules/libs/foo`.
    if (!existsSync(join(sub, "HEAD"))) collectModules(sub, found, depth + 1);
  }
}
