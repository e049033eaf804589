import { PRESET_TEMPLATES, shellQuote, type TestCommand } from "./presets.js";
import { canonicalName } from "./results.js";

/**
 * The command that runs one mapped test alone, by the runner's own filters
 * (its file, and a name pattern anchored at both ends): what the proof
 * re-runs when a run's results and its exit status disagree, and what a
 * mutant runs (docs/proof.md, "The verdict is the exit status"). The exit
 * status of such a run is the verdict: a process the test code runs in
 * cannot forge its own exit status the way it can a results file.
 * A `custom` template has no filters the gate knows: `undefined`.
 */
export function soloTemplate(command: TestCommand, name: string): string | undefined {
  const levels = canonicalName(name).split(" > ");
  const full = levels.map(escapeRegex).join(" ");
  const leaf = escapeRegex(levels.at(-1) ?? "");
  switch (command.preset) {
    case "vitest":
    case "jest":
      // Both match `-t` against the ancestors' names and the test's, joined by spaces.
      return `${PRESET_TEMPLATES[command.preset]} -t ${shellQuote(`^${full}$`)}`;
    case "node":
      // Node 20 matches the pattern against each test's own name, later versions against
      // the full name: either form. Another test of the same leaf name runs too, and a
      // failure of it fails the run: the answer errs towards "not passing", never towards a pass.
      return PRESET_TEMPLATES.node.replace(
        "node --test ",
        () => `node --test --test-name-pattern=${shellQuote(`^(?:${full}|${leaf})$`)} `,
      );
    case "pytest":
      // A node id: the file, then the class and function levels.
      return PRESET_TEMPLATES.pytest.replace(
        "{files}",
        () => `{files}::${levels.map((l) => shellQuote(l)).join("::")}`,
      );
    case "go": {
      const parts = (levels.at(-1) ?? "").split("/").map((p) => `^${escapeRegex(p)}$`);
      return PRESET_TEMPLATES.go.replace(
        "go test -json ",
        () => `go test -json -run ${shellQuote(parts.join("/"))} `,
      );
    }
    case "custom":
      return undefined;
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
