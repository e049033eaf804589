// Benchmark: validate 1,000 requirement specs of each layout (seed 004's
// `# Specification:` with its test file, spec-kit's `# Feature Specification:`
// with its tasks.md and the files the tasks name) through the real CLI bundle.
// Target (2-core machine): each set under 1 s wall, peak RSS under 200 MB.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, report } from "./measure.mjs";

const fixtures = fileURLToPath(new URL("../test/fixtures/specs/", import.meta.url));
const read = (rel) => readFileSync(join(fixtures, rel), "utf8");
const SEED = read("manual-not-allowed/twin/specs/001-trim/spec.md");
const KIT = read("missing-section/twin/specs/002-albums/spec.md");
const TASKS = read("missing-section/twin/specs/002-albums/tasks.md");

function write(root, rel, text) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

const root = mkdtempSync(join(tmpdir(), "cg-bench-specs-"));
try {
  const seed = join(root, "seed");
  const kit = join(root, "kit");
  write(seed, "tests/trim.test.ts", "// test\n");
  for (const f of ["src/models/album.ts", "src/services/albums.ts", "tests/albums.test.ts"]) {
    write(kit, f, "export {};\n");
  }
  for (let n = 1; n <= 1000; n++) {
    const dir = `specs/${String(n).padStart(4, "0")}-bench`;
    write(seed, `${dir}/spec.md`, SEED.replace("# Specification: ", `# Specification: ${n} `));
    write(kit, `${dir}/spec.md`, KIT);
    write(kit, `${dir}/tasks.md`, TASKS);
    write(kit, `${dir}/contracts/albums.md`, "# API\n");
  }
  const rows = [];
  for (const [name, dir] of [
    ["1,000 seed-layout specs (spec.md)", seed],
    ["1,000 spec-kit specs (spec.md + tasks.md)", kit],
  ]) {
    rows.push({
      name,
      ...(await measure(["validate", "--root", dir], { expectExit: 0, runs: 5 })),
    });
  }
  report("validate (requirement specs)", rows, { wallMs: 1000, rssMb: 200 });
} finally {
  rmSync(root, { recursive: true, force: true });
}
