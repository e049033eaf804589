import type { ProofCommand } from "../../integrity/harness-diff.js";
import type { ProofOptions } from "../prover.js";
import { detectTestCommand } from "./detect.js";
import { commandFromInput, shellQuote } from "./presets.js";

/** What `detectTestCommand` reads: the base side reads these before asking. */
const DETECTION_READS = [
  "package.json",
  "pytest.ini",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
  "conftest.py",
  "go.mod",
] as const;

/**
 * The proof's test command for the base comparison's harness (issue 33): the
 * `test-command` input, or what detection finds at base, with `{files}` the
 * mapped test files, `{packages}` their Go packages and `{junit}` a results
 * path, so the line resolves like a check's. Undefined when the proof is off.
 */
export function proofHarnessCommand(options: ProofOptions): ProofCommand | undefined {
  if (!options.requirementProof) return undefined;
  return {
    reads: DETECTION_READS,
    choose(read, files) {
      const chosen =
        options.testCommand !== undefined && options.testCommand.trim() !== ""
          ? commandFromInput(options.testCommand)
          : detectTestCommand(read, files);
      if (!chosen.ok) return undefined;
      const packages = [...new Set(files.map((f) => `./${f.replace(/\/?[^/]*$/, "")}`))];
      return chosen.command.template
        .replaceAll("{files}", files.map(shellQuote).join(" "))
        .replaceAll("{packages}", packages.map(shellQuote).join(" "))
        .replaceAll("{junit}", "results.xml");
    },
  };
}
