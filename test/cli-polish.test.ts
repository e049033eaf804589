import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INPUT_DEFAULTS } from "../src/action/inputs.js";
import { didYouMean, positiveInt } from "../src/cli/args.js";
import { COMMAND_HELP, MAIN_HELP } from "../src/cli/help.js";
import { runCli } from "./helpers/cli.js";
import { copyTree, tempDir, writeTree } from "./helpers/tmp.js";

const COMMANDS = ["validate", "status", "run", "merge", "refresh-hash"];

describe("help", () => {
  it("help <command> prints that command's help, help alone the general one", async () => {
    for (const cmd of COMMANDS) {
      const r = await runCli(["help", cmd], tempDir());
      expect(r.code, cmd).toBe(0);
      expect(r.stdout).toBe(COMMAND_HELP[cmd]);
      expect((await runCli([cmd, "--help"], tempDir())).stdout).toBe(r.stdout);
    }
    const general = await runCli(["help"], tempDir());
    expect(general.code).toBe(0);
    expect(general.stdout).toBe(MAIN_HELP);
    // `help help` is the general help too, not a usage error.
    expect(await runCli(["help", "help"], tempDir())).toMatchObject({ code: 0, stdout: MAIN_HELP });
  });

  it("help for something that is not a command is a usage error with a suggestion", async () => {
    const r = await runCli(["help", "runn"], tempDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no help for 'runn': not a command (did you mean 'run'?)");
    expect(r.stderr).toContain("validate, status, run, merge, refresh-hash");
  });

  it("every command's help lists its exit codes, 0 and 2 at least, and run's signals", () => {
    expect(Object.keys(COMMAND_HELP).sort()).toEqual([...COMMANDS].sort());
    for (const cmd of COMMANDS) {
      const codes = COMMAND_HELP[cmd]!.split("Exit codes:\n")[1];
      expect(codes, cmd).toBeDefined();
      expect(codes).toMatch(/^ {2}0 {2}/m);
      expect(codes).toMatch(/^ {2}2 {2}/m);
      if (cmd !== "status") expect(codes, cmd).toMatch(/^ {2}1 {2}/m);
    }
    expect(COMMAND_HELP.run).toMatch(/130, 143, 129 +ended by SIGINT, SIGTERM or SIGHUP/);
    expect(MAIN_HELP).toContain("help <command>");
  });
});

describe("did you mean", () => {
  it("suggests a command or option within a typo's distance, nothing for unrelated words", async () => {
    expect(didYouMean("valdate", COMMANDS)).toBe(" (did you mean 'validate'?)");
    expect(didYouMean("--jsno", ["--json", "--root"])).toBe(" (did you mean '--json'?)");
    expect(didYouMean("frobnicate", COMMANDS)).toBe("");
    expect(didYouMean("--x", ["--root", "--json"])).toBe("");
    expect(didYouMean("x", [])).toBe("");
  });

  it("for unknown commands and options of every command", async () => {
    const dir = tempDir();
    const cmd = await runCli(["stauts"], dir);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain("unknown command 'stauts' (did you mean 'status'?)");
    const cases: [string[], string][] = [
      [["run", "--no-wirte"], "'--no-write'"],
      [["run", "--timeout-second", "5"], "'--timeout-seconds'"],
      [["validate", "--contract", "x"], "'--contracts'"],
      [["status", "--jason"], "'--json'"],
      [["refresh-hash", "--rot", "."], "'--root'"],
      [["run", "--sandbox", "requried"], "'required'"],
    ];
    for (const [args, meant] of cases) {
      const r = await runCli(args, dir);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(`(did you mean ${meant}?)`);
    }
    for (const [typo, meant] of [
      ["--verison", "--version"],
      ["--hlep", "--help"],
      ["-v", "-V"],
    ]) {
      const r = await runCli([typo!], dir);
      expect(r.code, typo).toBe(2);
      expect(r.stderr, typo).toContain(`unknown option '${typo}' (did you mean '${meant}'?)`);
    }
    const before = await runCli(["--json", "validate"], dir);
    expect(before.code).toBe(2);
    expect(before.stderr).toBe(
      "contract-gate: unknown option '--json'\n  hint: a command's options follow it: contract-gate validate --json\n",
    );
    const far = await runCli(["run", "--frobnicate"], dir);
    expect(far.stderr).toContain("Unknown option '--frobnicate'\n");
  });
});

describe("numbers", () => {
  it("a negative, fractional, zero or huge number is named with its unit and range", async () => {
    const root = tempDir();
    const cases: [string[], string][] = [
      [
        ["--timeout-seconds", "-5"],
        "--timeout-seconds '-5' is not a positive integer: a whole number of seconds from 1 to 2000000 (default 120)",
      ],
      [["--timeout-seconds=-5"], "--timeout-seconds '-5' is not a positive integer"],
      [
        ["--max-parallel", "-1"],
        "--max-parallel '-1' is not a positive integer: a whole number of processes",
      ],
      [
        ["--regex-timeout-ms", "-.5"],
        "--regex-timeout-ms '-.5' is not a positive integer: a whole number of milliseconds",
      ],
      [
        ["--markdown-budget", "1e3"],
        "--markdown-budget '1e3' is not a positive integer: a whole number of characters",
      ],
      [
        ["--check-memory-mb", "99999999999"],
        "--check-memory-mb '99999999999' is not a positive integer: a whole number of MiB from 1 to 1048576",
      ],
      [["--timeout-seconds", "abc"], "--timeout-seconds 'abc' is not a positive integer"],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(["run", "--root", root, ...args], root);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(message);
      expect(r.stderr).not.toContain("ambiguous");
    }
  });

  it("a value that looks like an option after a text option says how to pass it", async () => {
    const r = await runCli(["run", "--root", "--json"], tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "--root needs a value, but an option follows it (write --root=VALUE",
    );
    const missing = await runCli(["run", "--root"], tempDir());
    expect(missing.stderr).toContain("--root needs a value\n");
    const flag = await runCli(["run", "--no-write=yes"], tempDir());
    expect(flag.stderr).toContain("--no-write is a switch and takes no value");
  });

  it("a negative number after -- stays a positional", async () => {
    const root = tempDir();
    const r = await runCli(["validate", "--root", root, "--", "-5"], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("-5 does not exist");
  });

  it("positiveInt accepts exactly 1..max", () => {
    expect(positiveInt("n", undefined, 7, "things")).toBe(7);
    expect(positiveInt("n", "1", 7, "things")).toBe(1);
    expect(positiveInt("n", "10", 7, "things", 10)).toBe(10);
    for (const bad of ["0", "11", "-1", "1.0", " 1", "0x1", ""]) {
      expect(() => positiveInt("n", bad, 7, "things", 10), bad).toThrow(
        "is not a positive integer",
      );
    }
  });
});

describe("refresh-hash names the paths it looked at", () => {
  it("a missing contract: the absolute path and the root", async () => {
    const root = tempDir();
    const r = await runCli(
      ["refresh-hash", "--root", root, ".planning/phase-1-contract.json"],
      root,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `.planning/phase-1-contract.json does not exist (looked at ${join(root, ".planning/phase-1-contract.json")}; repository root ${root})`,
    );
  });

  it("a missing plan: which plan, for which contract, where", async () => {
    const root = tempDir();
    writeTree(root, { ".planning/phase-1-contract.json": '{ "source_plan_hash": "" }\n' });
    const r = await runCli(
      ["refresh-hash", "--root", root, ".planning/phase-1-contract.json"],
      root,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `.planning/phase-1-plan.md (the plan of .planning/phase-1-contract.json) does not exist; nothing to hash (looked at ${join(root, ".planning/phase-1-plan.md")}; repository root ${root})`,
    );
    // With the plan in place the same command succeeds: the message was about the plan alone.
    writeFileSync(join(root, ".planning/phase-1-plan.md"), "# plan\n");
    const ok = await runCli(
      ["refresh-hash", "--root", root, ".planning/phase-1-contract.json"],
      root,
    );
    expect(ok.code).toBe(0);
  });
});

/** The markdown headings (`#` lines outside code fences), in order. */
function headings(markdown: string): string[] {
  let fence = false;
  return markdown.split("\n").filter((line) => {
    if (/^(`{3,}|~{3,})/.test(line)) fence = !fence;
    return !fence && /^#{1,6} /.test(line);
  });
}

describe("run --markdown and the documented sample", () => {
  it("has the sample's title and headings: the action's check-run name, the same levels", async () => {
    // docs/example-report.md is the demo's report as the action renders it (scripts/example-report.ts).
    const sample = readFileSync(join(import.meta.dirname, "../docs/example-report.md"), "utf8");
    const root = copyTree(join(import.meta.dirname, "../examples/demo"));
    const r = await runCli(["run", "--no-write", "--markdown", "--root", root], root);
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe(`## ❌ ${INPUT_DEFAULTS["check-name"]}: failure`);
    expect(headings(r.stdout)).toEqual(headings(sample));
    expect(headings(sample).length).toBeGreaterThan(10);
  });
});
