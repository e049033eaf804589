import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitAll } from "./git.js";
import { tempDir, writeTree } from "./tmp.js";

/** One oracle contract: `pass` criteria that hold, `fail` that do not, one file check. */
function contract(name: string, pass: number, fail: number): string {
  const lines = [
    `# CONTRACT — ${name}`,
    "- date: 2026-11-30 | flow: feat | branch: feat/x",
    "- status: active",
    "",
    "## REQUEST (verbatim — IMMUTABLE)",
    `Build ${name}.`,
    "",
    "## ACCEPTANCE CRITERIA",
  ];
  let n = 0;
  for (let i = 0; i < pass; i++) {
    n++;
    lines.push(`${n}. ${name} holds ${n}`, `   CHECK: echo OK-${n}`, `   EXPECT: OK-${n}`);
    lines.push("   EVIDENCE: pending");
  }
  for (let i = 0; i < fail; i++) {
    n++;
    lines.push(`${n}. ${name} breaks ${n}`, `   CHECK: echo NO; exit 3`, `   EXPECT: OK-${n}`);
    lines.push("   EVIDENCE: pending");
  }
  lines.push("", "## FILE SCOPE", "src/", "");
  return lines.join("\n");
}

export const SHARD_REPO_CONTRACTS = 9;

/**
 * A committed repository of nine markdown contracts of different weights:
 * passing, failing, and one invalid (no criteria section), so a split and a
 * merge have every kind of row to carry.
 */
export function shardRepo(): string {
  const root = tempDir("cg-shard-");
  const files: Record<string, string> = { "src/x.txt": "x\n" };
  const dir = ".claude/tasks/contracts";
  for (let i = 1; i <= 7; i++) {
    files[`${dir}/2026-11-30-c${i}-1200.md`] = contract(`c${i}`, i, i % 3 === 0 ? 1 : 0);
  }
  files[`${dir}/2026-11-30-big-1200.md`] = contract("big", 12, 0);
  files[`${dir}/2026-11-30-broken-1200.md`] = "# CONTRACT — broken\n\nno criteria here\n";
  writeTree(root, files);
  commitAll(root);
  return root;
}

/** Drop what differs between two runs of the same checks: their timings. */
export function withoutTimings(json: string): unknown {
  return JSON.parse(json, (k, v) => (k === "durationMs" ? 0 : v));
}

/** A parsed report, edited by a test as an attacker or a broken upload would. */
// biome-ignore lint/suspicious/noExplicitAny: tests write any shape on purpose
export type Json = Record<string, any>;

/** Rewrite a JSON file through `edit`. */
export function editJson(path: string, edit: (data: Json) => void): void {
  const data = JSON.parse(readFileSync(path, "utf8"));
  edit(data);
  writeFileSync(path, JSON.stringify(data, null, 2));
}

export function reportIn(dir: string, i: number, n: number): string {
  return join(dir, `contract-gate-shard-${i}-of-${n}.json`);
}
