// Benchmark: validate 1,000 OpenSpec changes and 1,000 Kiro specs through the
// real CLI bundle (issue 36). The changes share ten main specs, as a real
// repository's changes share its capabilities, so each main spec is read by a
// hundred changes. Target (2-core machine): each set under 1 s, peak RSS
// under 200 MB; on a loaded machine read the CPU time, not the wall time.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, report } from "./measure.mjs";

const fixtures = fileURLToPath(new URL("../test/fixtures/", import.meta.url));
const KIRO = join(fixtures, "kiro/honest");
const TWIN = join(fixtures, "openspec/twin/openspec");
const read = (rel) => readFileSync(join(TWIN, rel), "utf8");
const MAIN = read("specs/notifications/spec.md");
const CHANGE = "changes/add-digest-emails";
const CHANGE_FILES = ["proposal.md", "tasks.md", "design.md", ".openspec.yaml"].map((f) => [
  f,
  read(`${CHANGE}/${f}`),
]);
const DELTA = read(`${CHANGE}/specs/notifications/spec.md`);

function write(root, rel, text) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

const root = mkdtempSync(join(tmpdir(), "cg-bench-families-"));
try {
  const openspec = join(root, "openspec-repo");
  const kiro = join(root, "kiro-repo");
  write(openspec, "src/digest.ts", "export {};\n");
  for (let c = 0; c < 10; c++) write(openspec, `openspec/specs/cap-${c}/spec.md`, MAIN);
  for (let n = 1; n <= 1000; n++) {
    const dir = `openspec/changes/change-${String(n).padStart(4, "0")}`;
    for (const [f, text] of CHANGE_FILES) write(openspec, `${dir}/${f}`, text);
    write(openspec, `${dir}/specs/cap-${n % 10}/spec.md`, DELTA);
  }
  cpSync(join(KIRO, "src"), join(kiro, "src"), { recursive: true });
  for (let n = 1; n <= 1000; n++) {
    const dir = join(kiro, ".kiro/specs", `feature-${String(n).padStart(4, "0")}`);
    cpSync(join(KIRO, ".kiro/specs/export-reports"), dir, { recursive: true });
  }
  const rows = [];
  for (const [name, dir] of [
    ["1,000 OpenSpec changes (10 main specs)", openspec],
    ["1,000 Kiro specs (requirements + design + tasks)", kiro],
  ]) {
    rows.push({
      name,
      ...(await measure(["validate", "--root", dir], { expectExit: 0, runs: 5 })),
    });
  }
  report("validate (OpenSpec, Kiro)", rows, { wallMs: 1000, rssMb: 200 });
} finally {
  rmSync(root, { recursive: true, force: true });
}
