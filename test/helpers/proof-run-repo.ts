import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { MapEntry, RequirementModel } from "../../src/model/contract.js";
import type { ProveInput } from "../../src/proof/types.js";
import { commitAll, git } from "./git.js";
import { linkNodeModules } from "./proof-repo.js";
import { tempDir, writeTree } from "./tmp.js";

/** A git repository with a base commit and a head commit on top; returns the root and the base sha. */
export function proofRepo(
  base: Record<string, string>,
  head: Record<string, string>,
  removed: string[] = [],
): { root: string; base: string } {
  const root = tempDir("cg-proof-repo-");
  writeTree(root, { ".gitignore": "node_modules\n", ...base });
  linkNodeModules(root);
  commitAll(root, "base");
  const sha = git(root, "rev-parse", "HEAD").trim();
  writeTree(root, head);
  for (const r of removed) git(root, "rm", "-q", r);
  commitAll(root, "head");
  return { root, base: sha };
}

/** Every byte of the checkout and its git directory (links by target), as one digest per path. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[r] = `-> ${readlinkSync(abs)}`;
      else if (st.isDirectory()) walk(abs, r);
      else
        out[r] =
          `${st.mode.toString(8)} ${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk(root, "");
  return out;
}

/** One spec's proof input: `FR-id → file > name` lines, with the ids that changed. */
export function proveInput(
  lines: [id: string, file: string, name: string][],
  changed: string[],
  contract = "specs/001-x/spec.md",
): ProveInput {
  const entries: MapEntry[] = lines.map(([id, file, name], k) => ({
    requirement: { id, location: { path: contract, line: 40 + k, column: 3 } },
    target: { kind: "test", file, name },
    location: { path: contract, line: 40 + k, column: 1 },
  }));
  const model: RequirementModel = {
    layout: "spec",
    requirements: [...new Set(lines.map((l) => l[0]))].map((id, k) => ({
      id,
      text: id,
      location: { path: contract, line: 3 + k, column: 1 },
    })),
    scenarios: [],
    acceptance: [],
    guardrails: [],
    verification: [],
    map: { location: { path: contract, line: 39, column: 1 }, entries },
    openQuestions: [],
    stories: [],
    successCriteria: [],
  };
  return { contract, model, entries, changed: new Set(changed) };
}

/** The environment a test command gets here: no variables of the vitest running these tests. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
}
