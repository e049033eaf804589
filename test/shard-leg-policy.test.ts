/** Issue 32, item 3: a shard leg runs the PR's commands only inside a boundary, or when told `sandbox: off`. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { runContracts } from "../src/run/engine.js";
import type { SandboxInfo } from "../src/sandbox/index.js";
import { legRefusal } from "../src/shard/leg-policy.js";
import { bashExit, planContract } from "./fixtures/run/contracts.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const ACTION = { auto: "sandbox: auto", off: "`sandbox: off`" };
const none = (mode: SandboxInfo["mode"]): SandboxInfo => ({
  mode,
  mechanism: "none",
  cgroup: "none",
  memoryMb: 2048,
  warning:
    "user namespaces are disabled (kernel.unprivileged_userns_clone=0) and sudo -n is not allowed",
});

describe("legRefusal", () => {
  it("attack: sandbox auto on a runner without a boundary refuses, naming the missing capability", () => {
    const why = legRefusal(none("auto"), ACTION);
    expect(why).toMatch(
      /^not run: a shard leg runs the PR's commands only inside a sandbox boundary/,
    );
    expect(why).toContain("user namespaces are disabled");
    expect(why).toContain("`sandbox: off`");
  });

  it("controls: an explicit sandbox: off runs unsandboxed; a boundary runs", () => {
    expect(legRefusal(none("off"), ACTION)).toBeUndefined();
    expect(
      legRefusal(
        { mode: "auto", mechanism: "namespaces (root)", cgroup: "v2", memoryMb: 2048 },
        ACTION,
      ),
    ).toBeUndefined();
  });

  it("a refused leg's command checks are failing rows with that reason, and run nothing", async () => {
    const root = tempDir();
    writeTree(
      root,
      planContract(1, [
        { id: "T1", verification: [bashExit("touch RAN")] },
        {
          id: "T2",
          verification: [{ type: "file-exists", path: ".planning/phase-1-plan.md" }],
        },
      ]),
    );
    const contract = await loadContract(root, ".planning/phase-1-contract.json");
    const reason = legRefusal(none("auto"), ACTION)!;
    const run = await runContracts([contract], {
      root,
      maxParallel: 1,
      requireOracles: false,
      oracleTimeoutMs: 10_000,
      regexTimeoutMs: 10_000,
      env: {},
      commands: "block",
      commandsReason: reason,
    });
    const [t1, t2] = run.contracts[0]!.criteria;
    expect(t1!.checks[0]!.reason).toBe(reason);
    expect(t1!.blocking).toBe(true);
    expect(t2!.status).toBe("met");
    expect(run.summary.conclusion).toBe("failure");
    expect(existsSync(join(root, "RAN"))).toBe(false);
  });
});
