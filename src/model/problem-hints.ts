import type { ProblemCode } from "./problem-codes.js";

/**
 * How to fix each problem, when the place that found it has nothing more
 * specific to say: every problem a user sees ends in a fix (a test walks
 * `PROBLEM_CODES` and fails on a code without one). A separate table so the
 * codes' own table stays the one line docs/contracts.md shows.
 */
export const PROBLEM_HINTS: { readonly [K in ProblemCode]?: string } = {
  "file-too-large":
    "split the contract into smaller ones, or move long output and data out of it (the cap is 1 MiB)",
  "nul-byte": "save the file as UTF-8 text; a contract never contains NUL bytes",
  "invalid-utf8": "re-save the file as UTF-8 (most editors: File → Save with encoding → UTF-8)",
  "file-unreadable":
    "check that the path is a regular file you can read (`ls -l`), not a directory or a dangling link",
  "symlinked-contract":
    'replace the link with the file itself (`cp --remove-destination "$(readlink -f F)" F`)',
  "unsafe-path":
    "write the path relative to the repository root with / separators, without `..`, `~` or a drive letter",
  "invalid-regex":
    "fix the regular expression (JavaScript syntax); to match text literally, escape . * + ? ( ) [ ] { } | ^ $ \\",
  "json-syntax":
    "fix the JSON at that line and column: a missing comma, quote or bracket is the usual cause; `node -e 'JSON.parse(require(\"fs\").readFileSync(0))' < FILE` checks it",
  "json-duplicate-key": "keep one of the two keys: JSON would silently keep only the second",
  "unknown-key":
    "remove the key, or rename it to the key it was meant to be (docs/contracts.md lists every key)",
  "ignored-key": "remove the key: this check type does not read it",
  "advisory-path": "write the path relative to the repository root",
  "missing-key": "add the key (docs/contracts.md lists each kind's required keys and their types)",
  "wrong-type":
    "write the value as the type named (a number or boolean without quotes, a list in [ ], an object in { })",
  "invalid-value":
    "use one of the values the message names (docs/contracts.md lists each field's allowed values)",
  "unsupported-version": 'set "version": 1, the only schema version this gate reads',
  "persona-deprecated": 'write "persona": "backend"',
  "phase-mismatch": "make `phase` the number in the file name, or rename the file",
  "duplicate-task-id": "give each task its own id (T1, T2, …)",
  "invalid-task-id": "name the task T followed by a number: T1, T2, …",
  "unknown-dependency": "list in depends_on only ids of tasks in this contract",
  "dependency-cycle": "remove one of these dependencies; depends_on must not loop back",
  "wave-order": "put the task in a later wave than every task it depends on",
  "no-verification": "add at least one check to the task's verification list",
  "file-list-overlap": "list each file in only one of files_modify, files_create, files_delete",
  "unsafe-command":
    'commands run without a shell: put the program in "command" and each argument in "args"',
  "no-success-criteria": "add at least one entry to success_criteria",
  "action-too-long": "shorten action to 500 characters; details belong in the plan",
  "invalid-evidence":
    "give evidence_required entries a repo-relative path and a matcher that compiles as a regex",
  "plan-drift":
    "review the plan change, update the contract to match, then run `contract-gate refresh-hash <contract>`",
  "plan-missing":
    "add phase-N-plan.md beside the contract, or empty source_plan_hash if the contract has no plan",
  "invalid-plan-hash": "run `contract-gate refresh-hash <contract>` to write the plan's hash",
  "drift-check-disabled": "run `contract-gate refresh-hash <contract>` to record the plan's hash",
  "no-criteria":
    "add a `## ACCEPTANCE CRITERIA` section with numbered criteria (markdown), or tasks with checks (JSON)",
  "unclosed-fence": "close the fenced block with the same fence (``` or ~~~) it opened with",
  "partial-oracle":
    "give the criterion both CHECK: and EXPECT: (or neither, for a manual criterion)",
  "unindented-attribute":
    "indent the line (three spaces) under its numbered criterion: `   CHECK: …`",
  "orphan-attribute": "move the line under the numbered criterion it belongs to",
  "duplicate-criterion-id": "renumber the criteria so each id appears once",
  "duplicate-attribute": "keep one of the two lines",
  "empty-attribute":
    "write the command after CHECK: and a marker after EXPECT: that only success prints",
  "missing-evidence": "add `   EVIDENCE: pending` under the criterion; `run` fills it in",
  "abandon-missing-id": "write ABANDON: <criterion id> <reason>",
  "abandon-unknown-id": "name an existing criterion's id after ABANDON:",
  "abandon-blank-reason": "say after the id why the criterion is abandoned",
  "abandon-duplicate": "keep one ABANDON: line per criterion",
  "hidden-structure":
    "move the line out of the HTML comment or link definition: what GitHub hides, the gate refuses",
  "empty-heading": "give the heading its text, or remove it",
  "duplicate-status": "keep one status: line in the header",
  "oracle-outside-criteria": "move the line under a criterion in `## ACCEPTANCE CRITERIA`",
  "keyword-near-miss":
    "write the keyword exactly, in capitals and plain ASCII (CHECK:, EXPECT:, EVIDENCE:, CWD:, ABANDON:)",
  "misplaced-abandon":
    "write ABANDON: at the start of the line, not indented and not as a list item",
  "invalid-criterion-id": "number criteria with whole numbers followed by a dot: `4.`",
  "kind-mismatch":
    "rename the file to match what it holds, or fix its top level (docs/contracts.md: how kinds are named)",
  "not-a-planner-plan":
    "rename the file if it is not a planner plan, or add the planner's top-level keys",
  "planner-unknown-key": "remove the key, or check its spelling against docs/contracts.md",
  "duplicate-id": "give each entry its own id",
  "duplicate-change-id": "give each code change its own id",
  "absolute-path": "write the path relative to the repository root",
  "unresolved-reference": "point the reference at an id that exists, or add the entry it names",
  "milestone-wave": "list each milestone in exactly one wave",
  "qr-phase":
    "use the phase from the file name: plan-design, plan-code, plan-docs, impl-code or impl-docs",
  "qr-iteration": "set iteration to a whole number from 1 to 5",
  "qr-finding": "give each FAIL item a finding, and remove the finding of a PASS item",
  "invalid-finding-id":
    "use lowercase letters, digits, - and _ (at most 64), starting with a letter or digit",
  "legacy-research": "give each finding an id and a confidence (fact, inference or assumption)",
  "item-count": "keep each list between 1 and 64 entries",
  "not-single-line": "write the value on one line of at most 500 bytes",
  "unresolved-citation": "cite a finding id recorded in the research.json beside the plan",
  "worktree-modified":
    "commit the change, or stop the step before the gate from rewriting it (install with `npm ci --ignore-scripts`)",
  "misplaced-gate":
    "write the gate as `- [ ] <id>: <title>` at column 0, with its attributes indented below it",
  "foreign-file":
    "move the file out of the contract's path, or leave its path out of the `contracts` globs",
  "spec-status":
    "end the spec with exactly one line `SPEC STATUS: READY` or `SPEC STATUS: NEEDS CLARIFICATION`",
  "spec-syntax": "write the line in the form the message names (docs/contracts.md#spec shows each)",
  "uncovered-requirement":
    "name the requirement in a `Scenario: … (FR-…)` line or an acceptance criterion `- [ ] AC-n (FR-…): …`",
  "no-requirement-map":
    "add a `## Requirement Map` with one line per requirement: `- FR-001 → tests/x.test.ts > test name`",
  "unmapped-requirement":
    "add `- FR-… → FILE > TEST NAME` (or `→ manual: <how>`) to the `## Requirement Map`",
  "manual-not-allowed":
    "map the requirement to a test, or add `- manual: FR-… — <why no command can prove it>` under `## Verification`",
  "missing-test-file":
    "commit the test file, or point the map line at the file that holds the test",
  "missing-section":
    "add the section spec-kit's template marks mandatory (docs/contracts.md#speckit-spec)",
  "task-syntax": "write the task as `- [ ] T001 [P] [US1] <description>`",
  "phantom-completion":
    "create the file the task names, correct its path, or uncheck the task until it is done",
  "plan-clarification": "answer the open question in plan.md's Technical Context",
  "unchecked-checklist": "check the item once it holds, or remove it from the checklist",
  "shard-report-missing":
    "re-run the failed matrix leg (Re-run failed jobs), then the merge job; upload with `if: !cancelled()` so a leg with failing checks still uploads (docs/sharding.md)",
  "shard-report-invalid":
    "re-run the leg that wrote the file; upload the file the `report-file` output names, unchanged",
  "shard-report-mismatch":
    "run every leg and the merge on the same commit, gate ref and inputs, and download only this run's artifacts (docs/sharding.md)",
  "shard-report-duplicate":
    "give each leg its own artifact name (`shard-` and the matrix value) with `overwrite: true`",
  "shard-scope-mismatch":
    "give the matrix legs and the merge job the same `contracts`, `scope` and `working-directory` inputs",
};

/** The fix for a code when its finder gave none. */
export function defaultHint(code: ProblemCode): string | undefined {
  return PROBLEM_HINTS[code];
}
