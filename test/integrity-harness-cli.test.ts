import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { baseAndHead, ORACLE_BASE, ORACLE_PATH } from "./helpers/integrity-repo.js";

interface JsonFinding {
  code: string;
  blocking: boolean;
  path: string;
  line: number;
  subject: string;
  message: string;
  before?: string | null;
  after?: string | null;
}

/** `validate --base main --json` in a real repository whose PR branch applies `head` over `base`. */
async function findingsFor(head: Record<string, string | null>, base?: Record<string, string>) {
  const root = baseAndHead(head, base);
  const { code, stdout } = await runCli(["validate", "--base", "main", "--json"], root);
  const json = JSON.parse(stdout || "{}");
  return { code, findings: (json.integrity?.findings ?? []) as JsonFinding[] };
}
const codes = (fs: JsonFinding[]) => fs.map((f) => `${f.blocking ? "B" : "W"} ${f.code}`);

const NEXT_PATH = ".claude/tasks/contracts/2026-03-05-login-logout-1000.md";
const successor = (status: string) =>
  ORACLE_BASE.replace("- status: active", `- status: ${status}\n- supersedes: ${ORACLE_PATH}`);

describe("supersession counts only what runs (CLI --base)", () => {
  it("an identical successor that is aborted keeps nothing: criterion-removed, exit 1", async () => {
    const r = await findingsFor({ [ORACLE_PATH]: null, [NEXT_PATH]: successor("aborted") });
    expect(codes(r.findings).filter((c) => c.startsWith("B"))).toEqual([
      "B criterion-removed",
      "B criterion-removed",
      "B criterion-removed",
    ]);
    expect(r.findings[0]?.message).toContain(`${NEXT_PATH} supersedes it but runs nothing`);
    expect(r.code).toBe(1);
  });

  it("the same successor active keeps every criterion: a warning, exit 0 (control)", async () => {
    const r = await findingsFor({ [ORACLE_PATH]: null, [NEXT_PATH]: successor("active") });
    expect(codes(r.findings)).toEqual(["W contract-superseded"]);
    expect(r.code).toBe(0);
  });
});
