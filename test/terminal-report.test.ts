import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import { colour, plain } from "../src/report/paint.js";
import { OUTPUT_LINES, renderTerminal } from "../src/report/terminal.js";
import { type CriterionOutcome, summariseRun } from "../src/verdict.js";
import { runCli } from "./helpers/cli.js";
import { expectGolden } from "./helpers/golden.js";
import { sampleOutcomes } from "./helpers/outcomes.js";
import { copyTree } from "./helpers/tmp.js";

const DEMO = join(import.meta.dirname, "../examples/demo");

/** The lines of one criterion's row and the block under it, from a terminal report. */
function blockOf(report: string, id: string): string {
  const lines = report.split("\n");
  const start = lines.findIndex((l) => new RegExp(`^  \\S \\S+ +${id} `).test(l));
  if (start < 0) throw new Error(`no row for ${id}`);
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith("      ")) end++;
  return `${lines.slice(start, end).join("\n")}\n`;
}

describe("run's terminal report explains every blocking criterion", () => {
  it("the demo, run for real: one block per blocking criterion, a golden file per outcome", async () => {
    const root = copyTree(DEMO);
    const r = await runCli(["run", "--no-write", "--sandbox", "off", "--root", root], root);
    expect(r.code).toBe(1);
    expectGolden("terminal/demo.txt", r.stdout);
    // One golden file per outcome that blocks after running: unmet (marker absent, exit
    // code), evidence missing, error (timeout, unknown command), abandoned.
    const cases = {
      "unmet-exit": "3",
      "unmet-marker": "4",
      "unmet-command-exit": "T1.1",
      "evidence-missing": "T1.4",
      "error-timeout": "T1.2",
      "error-command-not-found": "T1.3",
      abandoned: "FW-2",
    };
    for (const [name, id] of Object.entries(cases)) {
      expectGolden(`terminal/${name}.txt`, blockOf(r.stdout, id));
    }
    // Each block names the file and line, what was expected and what happened.
    const unmet = blockOf(r.stdout, "4");
    expect(unmet).toMatch(/at +\.claude\/tasks\/contracts\/2026-11-29-greeting-1200\.md:\d+/);
    expect(unmet).toMatch(/expected +`node src\/greet\.js ada` exits 0 and prints output matching/);
    expect(unmet).toMatch(/happened +exit 0, marker absent/);
    expect(unmet).toContain("│ Hello, ada!");
    // Control: a met criterion gets no block.
    expect(blockOf(r.stdout, "T2.2").split("\n")).toHaveLength(2);
  });

  it("keeps the last lines of output only, each cut, with escapes and control characters gone", () => {
    const outcomes = sampleOutcomes();
    const k = outcomes[0]!.criteria.find((c) => c.id === "2")!;
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    long.push(
      `\u001b[31mred\u001b[39m and a bell\u0007 and \u001b]0;title\u0007`,
      "x".repeat(1000),
    );
    k.checks[0] = {
      ...k.checks[0]!,
      detail: long.join("\n"),
      expected: '`npm test` exits 0 and prints the marker "TESTS-OK"',
    };
    const text = renderTerminal(summariseRun(outcomes), outcomes, plain);
    expectGolden("terminal/bounded-output.txt", blockOf(text, "2"));
    const block = blockOf(text, "2");
    expect(block).toContain(`last ${OUTPUT_LINES} of 42 lines:`);
    expect(block).not.toContain("line 32\n");
    expect(block).toContain("line 33");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no escape may reach the terminal
    expect(block).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(block).toContain("red and a bell");
    expect(Math.max(...block.split("\n").map((l) => l.length))).toBeLessThan(260);
  });

  it("a blocking manual criterion says oracles are required; a refused contract's criteria point at its problems", () => {
    const outcomes = sampleOutcomes();
    const manual = outcomes[0]!.criteria.find((c) => c.id === "4")! as CriterionOutcome;
    Object.assign(manual, {
      blocking: true,
      reason: "no oracle, and oracles are required (--require-oracles)",
    });
    const text = renderTerminal(summariseRun(outcomes), outcomes, plain);
    expect(blockOf(text, "4")).toMatch(/expected +a CHECK or oracle: oracles are required/);
    // The invalid contract's problem lines (file:line:col, hint) explain its not-run rows.
    expect(blockOf(text, "T1.1").split("\n")).toHaveLength(2);
    expect(text).toContain(".planning/phase-2-contract.json:31:13: error unknown-key");
  });

  it("colours only on a terminal, and never with NO_COLOR", async () => {
    const outcomes = sampleOutcomes();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for colour codes
    const esc = /\u001b\[/;
    expect(renderTerminal(summariseRun(outcomes), outcomes, colour)).toMatch(esc);
    const root = copyTree(DEMO);
    const run = async (isTTY: boolean, env: NodeJS.ProcessEnv) => {
      let out = "";
      await main(["run", "--no-write", "--sandbox", "off", "--root", root, ".claude"], {
        stdout: (s) => {
          out += s;
        },
        stderr: () => {},
        cwd: root,
        env,
        isTTY,
      });
      return out;
    };
    expect(await run(true, {})).toMatch(esc); // control: a terminal gets colour
    expect(await run(true, { NO_COLOR: "1" })).not.toMatch(esc);
    expect(await run(false, {})).not.toMatch(esc);
  });
});
