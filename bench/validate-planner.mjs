// Benchmark: validate 1,000 planner plans (20 milestones, about 20 KB each)
// generated into a temp dir, through the real CLI bundle in a child process.
// Target (2-core machine): under 1 s wall, peak RSS under 200 MB.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measure, report } from "./measure.mjs";
import { plannerPlan } from "./planner-plan.mjs";

const root = mkdtempSync(join(tmpdir(), "cg-bench-planner-"));
try {
  mkdirSync(join(root, "plans"), { recursive: true });
  let bytes = 0;
  for (let p = 1; p <= 1000; p++) {
    const text = JSON.stringify(plannerPlan(p), null, 2);
    bytes += text.length;
    writeFileSync(join(root, `plans/p${p}-plan.json`), text);
  }
  const name = `1,000 planner plans (20 milestones, ${Math.round(bytes / 1000 / 1024)} KB each)`;
  const rows = [{ name, ...(await measure(["validate", "--root", root], { expectExit: 0 })) }];
  report("validate planner", rows, { wallMs: 1000, rssMb: 200 });
} finally {
  rmSync(root, { recursive: true, force: true });
}
