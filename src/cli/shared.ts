import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { discoverContracts, UsageError } from "../discover.js";
import { auditDiscovery } from "../discover-audit.js";
import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds.js";
import { loadContract } from "../load.js";
import type { Contract } from "../model.js";

/** Repository root: --root, else the git top-level of the current directory, else the directory. */
export async function findRoot(cwd: string, explicit: string | undefined): Promise<string> {
  if (explicit !== undefined) return resolve(cwd, explicit);
  return new Promise((done) => {
    execFile("git", ["rev-parse", "--show-toplevel"], { cwd }, (err, stdout) =>
      done(err ? cwd : stdout.trim() || cwd),
    );
  });
}

/**
 * Discover (default globs plus any extra) and load every contract, in path
 * order. Searching the whole root, the discovery is audited first
 * (`auditDiscovery`): its warnings go to `warn`, an error is a usage error.
 */
export async function loadAll(
  root: string,
  paths: readonly string[],
  extraGlobs: readonly string[] | undefined,
  cwd: string,
  warn: (message: string) => void = () => {},
): Promise<Contract[]> {
  const globs = [...DEFAULT_CONTRACT_GLOBS, ...(extraGlobs ?? [])];
  const files = await discoverContracts({ root, cwd, paths, globs });
  // Named paths are what the user asked for; only a search of the root can miss contracts.
  if (paths.length === 0) {
    const audit = await auditDiscovery({ root, globs, given: extraGlobs ?? [], found: files });
    for (const w of audit.warnings) warn(`contract-gate: warning: ${w}\n`);
    if (audit.errors.length > 0) throw new UsageError(audit.errors.join("\ncontract-gate: "));
  }
  return Promise.all(files.map((f) => loadContract(root, f)));
}
