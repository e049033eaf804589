/** How much a problem weighs: an error makes its contract invalid (nothing runs); a warning is said. */
export type Severity = "error" | "warning";

/** One problem code: how much it weighs, which kinds report it, its line in docs/contracts.md, and how to fix it. */
export interface ProblemCodeRecord {
  severity: Severity;
  kinds: string;
  /** The one line docs/contracts.md shows. */
  doc: string;
  /** How to fix it, when the place that found it has nothing more specific to say: every problem a user sees ends in a fix. */
  hint: string;
}

/**
 * Every problem code contract-gate can report, one record each: its severity,
 * the one line docs/contracts.md shows and its default hint, so a code without
 * a hint does not compile. Codes are stable: tools and people match on them.
 * A test checks that every code emitted is listed here and in docs/contracts.md.
 */
export const PROBLEM_CODES = {
  // Input hygiene (every kind)
  "file-too-large": {
    severity: "error",
    kinds: "all",
    doc: "The file is over 1 MiB; nothing in it is read.",
    hint: "split the contract into smaller ones, or move long output and data out of it (the cap is 1 MiB)",
  },
  "nul-byte": {
    severity: "error",
    kinds: "all",
    doc: "The file contains a NUL byte (binary or corrupted); nothing in it is read.",
    hint: "save the file as UTF-8 text; a contract never contains NUL bytes",
  },
  "invalid-utf8": {
    severity: "error",
    kinds: "all",
    doc: "The file is not valid UTF-8; nothing in it is read.",
    hint: "re-save the file as UTF-8 (most editors: File → Save with encoding → UTF-8)",
  },
  "file-unreadable": {
    severity: "error",
    kinds: "all",
    doc: "The file could not be read (missing, a directory, or no permission).",
    hint: "check that the path is a regular file you can read (`ls -l`), not a directory or a dangling link",
  },
  "worktree-modified": {
    severity: "error",
    kinds: "all",
    doc: "The contract, its plan, evidence or research in the working tree differs from the commit the gate compared: a step before the gate changed it after checkout, so the contract runs nothing (the action always; the CLI with `CI` set or `--committed`).",
    hint: "commit the change, or stop the step before the gate from rewriting it (install with `npm ci --ignore-scripts`)",
  },
  "symlinked-contract": {
    severity: "error",
    kinds: "all",
    doc: "A contract, its plan or its evidence file is a symlink (or lies under one); it is never read through the link, and the message names where the link leads.",
    hint: 'replace the link with the file itself (`cp --remove-destination "$(readlink -f F)" F`)',
  },
  "unsafe-path": {
    severity: "error",
    kinds: "all",
    doc: "A path in the contract is not repo-relative: absolute, drive letter, UNC, backslash, control character, `~` or a `..` segment.",
    hint: "write the path relative to the repository root with / separators, without `..`, `~` or a drive letter",
  },
  "invalid-regex": {
    severity: "error",
    kinds: "all",
    doc: "A regular expression (`pattern`, `expect_stdout_match`, `EXPECT: /re/`) does not compile.",
    hint: "fix the regular expression (JavaScript syntax); to match text literally, escape . * + ? ( ) [ ] { } | ^ $ \\",
  },

  // JSON and schema (plan-contract; the shared JSON reader for every JSON kind)
  "json-syntax": {
    severity: "error",
    kinds: "all JSON",
    doc: "The file is not valid JSON (line and column of the first error).",
    hint: "fix the JSON at that line and column: a missing comma, quote or bracket is the usual cause; `node -e 'JSON.parse(require(\"fs\").readFileSync(0))' < FILE` checks it",
  },
  "json-duplicate-key": {
    severity: "error",
    kinds: "all JSON",
    doc: "An object has the same key twice; the second would silently replace the first.",
    hint: "keep one of the two keys: JSON would silently keep only the second",
  },
  "unknown-key": {
    severity: "error",
    kinds: "plan-contract, workphase-*",
    doc: "A key the schema does not define (often a typo: a hint names the closest known key). Planner files warn instead (`planner-unknown-key`).",
    hint: "remove the key, or rename it to the key it was meant to be (docs/contracts.md lists every key)",
  },
  "ignored-key": {
    severity: "warning",
    kinds: "plan-contract",
    doc: 'A check carries another check type\'s key at its empty or default value (`"pattern": ""`, `"expect": "present"` on `file-exists`), as generators write it; the key is ignored.',
    hint: "remove the key: this check type does not read it",
  },
  "advisory-path": {
    severity: "warning",
    kinds: "plan-contract",
    doc: "A path in `context_files` (advisory: no check reads it) is absolute or leaves the repository.",
    hint: "write the path relative to the repository root",
  },
  "missing-key": {
    severity: "error",
    kinds: "all JSON",
    doc: "A required key is absent.",
    hint: "add the key (docs/contracts.md lists each kind's required keys and their types)",
  },
  "wrong-type": {
    severity: "error",
    kinds: "all JSON",
    doc: "A value has the wrong JSON type (e.g. a string where a number is required).",
    hint: "write the value as the type named (a number or boolean without quotes, a list in [ ], an object in { })",
  },
  "invalid-value": {
    severity: "error",
    kinds: "plan-contract, planner-plan, planner-qr, workphase-research",
    doc: "A value has the right type but is not allowed (enum member, integer range, timestamp format, empty string).",
    hint: "use one of the values the message names (docs/contracts.md lists each field's allowed values)",
  },
  "unsupported-version": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`version` is not 1, the only schema version supported.",
    hint: 'set "version": 1, the only schema version this gate reads',
  },
  "persona-deprecated": {
    severity: "warning",
    kinds: "plan-contract",
    doc: '`persona: "data"` was dropped by the v1 locked decisions; use `backend`.',
    hint: 'write "persona": "backend"',
  },
  "phase-mismatch": {
    severity: "error",
    kinds: "plan-contract",
    doc: "The `phase` field differs from the N in the file name `phase-N-contract.json`.",
    hint: "make `phase` the number in the file name, or rename the file",
  },

  // plan-contract: the 11 validation rules of the format
  "duplicate-task-id": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 1: two tasks share an id.",
    hint: "give each task its own id (T1, T2, …)",
  },
  "invalid-task-id": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 2: a task id does not match `^T\\d+$`.",
    hint: "name the task T followed by a number: T1, T2, …",
  },
  "unknown-dependency": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 3: `depends_on` names a task id that does not exist.",
    hint: "list in depends_on only ids of tasks in this contract",
  },
  "dependency-cycle": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 4: `depends_on` forms a cycle (the message names it, e.g. `T1 → T3 → T1`).",
    hint: "remove one of these dependencies; depends_on must not loop back",
  },
  "wave-order": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 5: a task's wave is not greater than the wave of every task it depends on.",
    hint: "put the task in a later wave than every task it depends on",
  },
  "no-verification": {
    severity: "error",
    kinds: "plan-contract, spec",
    doc: "Rule 6: a task has an empty `verification` list; a spec has no Verification command.",
    hint: "add at least one check to the task's verification list",
  },
  "file-list-overlap": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 7: a file appears in more than one of `files_modify`, `files_create`, `files_delete`.",
    hint: "list each file in only one of files_modify, files_create, files_delete",
  },
  "unsafe-command": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 8: a `command-exit` command contains whitespace, a newline or a shell metacharacter; put arguments in `args`.",
    hint: 'commands run without a shell: put the program in "command" and each argument in "args"',
  },
  "no-success-criteria": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 9: `success_criteria` is empty.",
    hint: "add at least one entry to success_criteria",
  },
  "action-too-long": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 10: `action` is longer than 500 characters.",
    hint: "shorten action to 500 characters; details belong in the plan",
  },
  "invalid-evidence": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 11: an `evidence_required` path is not repo-relative, or its `matcher` is not a valid regex.",
    hint: "give evidence_required entries a repo-relative path and a matcher that compiles as a regex",
  },

  // plan-contract: drift against phase-N-plan.md
  "plan-drift": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`source_plan_hash` differs from the SHA-256 of `phase-N-plan.md`; the plan changed after the contract was compiled.",
    hint: "review the plan change, update the contract to match, then run `contract-gate refresh-hash <contract>`",
  },
  "plan-missing": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`source_plan_hash` is set but `phase-N-plan.md` is not beside the contract.",
    hint: "add phase-N-plan.md beside the contract, or empty source_plan_hash if the contract has no plan",
  },
  "invalid-plan-hash": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`source_plan_hash` is not `sha256:` followed by 64 lowercase hex digits.",
    hint: "run `contract-gate refresh-hash <contract>` to write the plan's hash",
  },
  "drift-check-disabled": {
    severity: "warning",
    kinds: "plan-contract",
    doc: "`source_plan_hash` is empty or absent, so plan drift cannot be detected.",
    hint: "run `contract-gate refresh-hash <contract>` to record the plan's hash",
  },

  // oracle-contract: the markdown grammar, fail-closed
  "no-criteria": {
    severity: "error",
    kinds: "all",
    doc: "No `## ACCEPTANCE CRITERIA` section, or no criteria in it; a phase contract with no tasks, or no checks in any task.",
    hint: "add a `## ACCEPTANCE CRITERIA` section with numbered criteria (markdown), or tasks with checks (JSON)",
  },
  "unclosed-fence": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger, spec, speckit-*, openspec-*",
    doc: "A fenced code block is never closed, so the rest of the file would be hidden.",
    hint: "close the fenced block with the same fence (``` or ~~~) it opened with",
  },
  "partial-oracle": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion has `CHECK:` without `EXPECT:` or `EXPECT:` without `CHECK:`.",
    hint: "give the criterion both CHECK: and EXPECT: (or neither, for a manual criterion)",
  },
  "unindented-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`CHECK:`/`EXPECT:`/`EVIDENCE:`/`CWD:` at column 0; attributes must be indented under their criterion.",
    hint: "indent the line (three spaces) under its numbered criterion: `   CHECK: …`",
  },
  "orphan-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "An attribute belongs to no criterion (before the first, or after a refused duplicate id).",
    hint: "move the line under the numbered criterion it belongs to",
  },
  "duplicate-criterion-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "Two criteria share an id.",
    hint: "renumber the criteria so each id appears once",
  },
  "duplicate-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "The same attribute appears twice on one criterion.",
    hint: "keep one of the two lines",
  },
  "empty-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`CHECK:` or `EXPECT:` has an empty value, or `EXPECT: /re/` matches the empty string (either would match anything).",
    hint: "write the command after CHECK: and a marker after EXPECT: that only success prints",
  },
  "missing-evidence": {
    severity: "error",
    kinds: "oracle-contract",
    doc: "A runnable criterion (with `CHECK:`/`EXPECT:`) has no `EVIDENCE:` line to record its outcome.",
    hint: "add `   EVIDENCE: pending` under the criterion; `run` fills it in",
  },
  "abandon-missing-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` names no criterion id.",
    hint: "write ABANDON: <criterion id> <reason>",
  },
  "abandon-unknown-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` names a criterion id that does not exist.",
    hint: "name an existing criterion's id after ABANDON:",
  },
  "abandon-blank-reason": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` has no reason; an abandonment must say why.",
    hint: "say after the id why the criterion is abandoned",
  },
  "abandon-duplicate": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A second `ABANDON:` for the same criterion.",
    hint: "keep one ABANDON: line per criterion",
  },
  "hidden-structure": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger, spec, speckit-*, openspec-*",
    doc: "A heading, `status:` line, criterion, oracle keyword or fence inside an HTML comment or `[//]: # (...)` definition, which GitHub does not show; or a comment hiding part of a `CHECK:`/`EXPECT:`/`CWD:` value.",
    hint: "move the line out of the HTML comment or link definition: what GitHub hides, the gate refuses",
  },
  "empty-heading": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A `##` heading with no text; it would silently end the section above it.",
    hint: "give the heading its text, or remove it",
  },
  "duplicate-status": {
    severity: "error",
    kinds: "oracle-contract",
    doc: "More than one `status:` line in the header.",
    hint: "keep one status: line in the header",
  },
  "oracle-outside-criteria": {
    severity: "error",
    kinds: "oracle-contract",
    doc: "`CHECK:`/`EXPECT:`/`EVIDENCE:`/`CWD:`/`ABANDON:` outside `## ACCEPTANCE CRITERIA` (the message names the heading); it would never run.",
    hint: "move the line under a criterion in `## ACCEPTANCE CRITERIA`",
  },
  "keyword-near-miss": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger, spec, speckit-*",
    doc: "A line that reads as a keyword, criterion or heading but is not written exactly (lower case, zero-width or bidi characters, look-alike letters).",
    hint: "write the keyword exactly, in capitals and plain ASCII (CHECK:, EXPECT:, EVIDENCE:, CWD:, ABANDON:)",
  },
  "misplaced-abandon": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` indented or written as a list item; only column 0 counts.",
    hint: "write ABANDON: at the start of the line, not indented and not as a list item",
  },
  "misplaced-gate": {
    severity: "error",
    kinds: "gates-ledger",
    doc: "A gate line (`- [ ] G2: ...`) indented, quoted, inside another list item or numbered: GitHub shows it as a gate, but only `- [ ] <id>:` at column 0 is read, so it would never run.",
    hint: "write the gate as `- [ ] <id>: <title>` at column 0, with its attributes indented below it",
  },
  "blank-outcome": {
    severity: "error",
    kinds: "gates-ledger",
    doc: "A gate line with no outcome (`- [ ] G1:` and nothing after it); unlazy's runner refuses it too.",
    hint: "write what the gate proves after the id: `- [ ] G1: <outcome>`",
  },
  "misplaced-owns": {
    severity: "error",
    kinds: "gates-ledger",
    doc: "`OWNS:` after the first gate; unlazy reads `OWNS:` only above the gates (its runner refuses it below), so it would own nothing.",
    hint: "move the OWNS: line above the first gate",
  },
  "invalid-criterion-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion numbered like `4b.` or `2)`: ids are whole numbers followed by `.`.",
    hint: "number criteria with whole numbers followed by a dot: `4.`",
  },

  // JSON kinds: which kind a file is (docs/contracts.md)
  "kind-mismatch": {
    severity: "error",
    kinds: "all JSON",
    doc: "The file's name says one kind (`qr-<phase>.json`, `context.json`, `*plan.json`, `.workphase/*/research.json`, ...) but its top level has another kind's shape; it is not read as either.",
    hint: "rename the file to match what it holds, or fix its top level (docs/contracts.md: how kinds are named)",
  },
  "foreign-file": {
    severity: "error",
    kinds: "all",
    doc: "A file at a kind's path (its name or its glob) has none of that kind's identifying keys or headings: another tool's file, an older format, a README. One error at line 1 names what it looks like; nothing in it is read, and it still blocks until it is moved or left out of the globs.",
    hint: "move the file out of the contract's path, or leave its path out of the `contracts` globs",
  },
  "not-a-planner-plan": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "A `*plan.json` under a planner glob has none of the planner's top-level keys (`milestones`, `planning_context`, ...); it is skipped, and named so that it is not skipped silently.",
    hint: "rename the file if it is not a planner plan, or add the planner's top-level keys",
  },

  // planner-plan, planner-context, planner-qr (seed 002)
  "planner-unknown-key": {
    severity: "warning",
    kinds: "planner-*",
    doc: "A key the planner's schema does not define; its own validator ignores extras, so this only warns.",
    hint: "remove the key, or check its spelling against docs/contracts.md",
  },
  "duplicate-id": {
    severity: "error",
    kinds: "planner-*, workphase-research, spec, speckit-*",
    doc: "Two entries share an id that something references: decisions, milestones, code intents, diagrams, a diagram's nodes, waves, quality-review items, research findings.",
    hint: "give each entry its own id",
  },
  "duplicate-change-id": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "Two `code_changes` of a milestone share an id; nothing references these ids, and real plans repeat them.",
    hint: "give each code change its own id",
  },
  "absolute-path": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "A milestone's `files`, a code intent's or change's `file`, or a `file:` test is an absolute path (`/workspaces/<repo>/...`); a `file:` test with one becomes a manual criterion.",
    hint: "write the path relative to the repository root",
  },
  "unresolved-reference": {
    severity: "error",
    kinds: "planner-plan, spec, speckit-*",
    doc: "A cross-reference resolves to nothing: `intent_ref` to an intent of the same milestone, `decision_refs`/`decision_ref` to a decision, an edge to a node of the same diagram, `milestone:M-XXX` and `waves[].milestones` to a milestone.",
    hint: "point the reference at an id that exists, or add the entry it names",
  },
  "milestone-wave": {
    severity: "error",
    kinds: "planner-plan",
    doc: "A milestone is in no wave, or in more than one (waves run in order; each milestone runs once).",
    hint: "list each milestone in exactly one wave",
  },
  "qr-phase": {
    severity: "error",
    kinds: "planner-qr",
    doc: "`phase` is not one of `plan-design`, `plan-code`, `plan-docs`, `impl-code`, `impl-docs`, or differs from the phase in the file name.",
    hint: "use the phase from the file name: plan-design, plan-code, plan-docs, impl-code or impl-docs",
  },
  "qr-iteration": {
    severity: "error",
    kinds: "planner-qr",
    doc: '`iteration` is not an integer from 1 to 5 ("Maximum 5 iterations per QR phase").',
    hint: "set iteration to a whole number from 1 to 5",
  },
  "qr-finding": {
    severity: "error",
    kinds: "planner-qr",
    doc: "A `FAIL` item has no `finding` that says why.",
    hint: "give each FAIL item a finding that says what failed",
  },
  "nothing-to-gate": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "No milestone of the plan lists a test, so the plan has no criterion: it passes with nothing checked.",
    hint: 'add tests to the milestones ("tests": ["file:tests/test_x.py"]) to gate them',
  },
  "qr-pass-finding": {
    severity: "warning",
    kinds: "planner-qr",
    doc: "A `PASS` item still carries a `finding` (the planner clears it on PASS); the item is read as PASS.",
    hint: "set finding to null once the item passes",
  },

  // workphase-research, workphase-plan (seed 003)
  "invalid-finding-id": {
    severity: "error",
    kinds: "workphase-research",
    doc: "A finding id does not match `^[a-z0-9][a-z0-9_-]{0,63}$` (it must read unambiguously in `research:<id>`).",
    hint: "use lowercase letters, digits, - and _ (at most 64), starting with a letter or digit",
  },
  "legacy-research": {
    severity: "warning",
    kinds: "workphase-research",
    doc: "A finding lacks `id` or `confidence` (the form sealed before ids existed); it is read as `legacy-<n>` and `inference`. Accepted only when the file is unchanged since the PR base (`legacy-research-changed`).",
    hint: "give each finding an id and a confidence (fact, inference or assumption)",
  },
  "item-count": {
    severity: "error",
    kinds: "workphase-*",
    doc: "A list is over its bound of 64 entries, or `findings`/`changes` is empty.",
    hint: "keep each list between 1 and 64 entries",
  },
  "not-single-line": {
    severity: "error",
    kinds: "workphase-*",
    doc: "A value is empty where required, longer than 500 bytes after trimming, or spans lines: a sealed artifact is a set of short claims.",
    hint: "write the value on one line of at most 500 bytes",
  },
  "unresolved-citation": {
    severity: "error",
    kinds: "workphase-plan",
    doc: "`research:<id>` in the plan names no finding of the `research.json` beside it (or there is none): a plan cannot rest on a finding nobody recorded.",
    hint: "cite a finding id recorded in the research.json beside the plan",
  },

  // spec, speckit-spec, speckit-tasks (seed 004 and GitHub's spec-kit)
  "spec-status": {
    severity: "error",
    kinds: "spec",
    doc: "No `SPEC STATUS: READY` / `SPEC STATUS: NEEDS CLARIFICATION` line, two of them, one written otherwise (`Ready`, bold), one that is not the last non-empty line, or READY while a question is still open.",
    hint: "end the spec with exactly one line `SPEC STATUS: READY` or `SPEC STATUS: NEEDS CLARIFICATION`",
  },
  "spec-syntax": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "A requirement, scenario, acceptance criterion, Verification or Requirement Map line that does not follow its grammar (the message says which form is expected).",
    hint: "write the line in the form the message names (docs/contracts.md#spec shows each)",
  },
  "uncovered-requirement": {
    severity: "error",
    kinds: "spec",
    doc: "A requirement (not `[REMOVED]`) that no `Scenario:` line and no acceptance criterion names.",
    hint: "name the requirement in a `Scenario: … (FR-…)` line or an acceptance criterion `- [ ] AC-n (FR-…): …`",
  },
  "no-requirement-map": {
    severity: "warning",
    kinds: "spec, speckit-spec",
    doc: "The spec has requirements but no `## Requirement Map`: nothing says which test proves each, so they show unmapped (blocking only with `requirement-map: required`, CLI `--requirement-map required`).",
    hint: "add a `## Requirement Map` with one line per requirement: `- FR-001 → tests/x.test.ts > test name`",
  },
  "unmapped-requirement": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "The `## Requirement Map` exists but has no line for a requirement (not `[REMOVED]`).",
    hint: "add `- FR-… → FILE > TEST NAME` (or `→ manual: <how>`) to the `## Requirement Map`",
  },
  "manual-not-allowed": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "A map line says `manual:` for a requirement the spec's `## Verification` does not name in a `- manual: FR-… — <why>` line.",
    hint: "map the requirement to a test, or add `- manual: FR-… — <why no command can prove it>` under `## Verification`",
  },
  "missing-test-file": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "A map line names a test file that does not exist at the commit gated.",
    hint: "commit the test file, or point the map line at the file that holds the test",
  },
  "missing-section": {
    severity: "warning",
    kinds: "speckit-spec",
    doc: "A section spec-kit's template marks mandatory is missing (by the template generation the file follows: the first template has no Success Criteria).",
    hint: "add the section spec-kit's template marks mandatory (docs/contracts.md#speckit-spec)",
  },
  "task-syntax": {
    severity: "error",
    kinds: "speckit-spec, speckit-tasks",
    doc: "A checkbox line under a `## Phase` heading starts with a task id but does not follow `- [ ] T001 [P] [US1] <description>`.",
    hint: "write the task as `- [ ] T001 [P] [US1] <description>`",
  },
  "not-a-ledger": {
    severity: "warning",
    kinds: "gates-ledger",
    doc: "A `GATES.md` with no gate lines and no `# Gates:` title (a release-gate manifest, a table of quantum gates): not an unlazy ledger, so not a contract; said once, never blocking.",
    hint: "nothing to do; to stop the note, leave the file out of discovery (CLI: --contracts '!GATES.md'; action: a `!GATES.md` line in `contracts`)",
  },
  "phantom-completion": {
    severity: "error",
    kinds: "speckit-spec, speckit-tasks, openspec-change",
    doc: "A task the change marks done (absent or open at the base, done at head) names a repository path (a token with a `/` ending in a known extension or in `/`) that exists neither from the root nor beside the spec (spec-kit issue #1865). A change rule: a task done at the base is not judged again (a warning under `scope: all`), and with no base a missing path warns.",
    hint: "create the file the task names, correct its path, or uncheck the task until it is done",
  },
  "plan-clarification": {
    severity: "warning",
    kinds: "speckit-spec",
    doc: "`plan.md`'s Technical Context still says NEEDS CLARIFICATION.",
    hint: "answer the open question in plan.md's Technical Context",
  },
  "unchecked-checklist": {
    severity: "warning",
    kinds: "speckit-spec",
    doc: "An unchecked item in a `checklists/*.md` beside the spec.",
    hint: "check the item once it holds, or remove it from the checklist",
  },
  // kiro-spec (Kiro's `.kiro/specs/<feature>/`)
  "kiro-structure": {
    severity: "error",
    kinds: "kiro-spec",
    doc: "A requirement with no numbered acceptance criterion, a requirement or criterion number used twice; as warnings, a bulleted criterion read by its position and a task number used twice.",
    hint: "write `### Requirement N: <title>`, `#### Acceptance Criteria` and numbered EARS lines, each number once",
  },
  "kiro-criterion-wording": {
    severity: "warning",
    kinds: "kiro-spec",
    doc: "An acceptance criterion (its wrapped lines joined) has no SHALL, or writes it in lowercase; Japanese `WHEN … THEN …` criteria are read as normative.",
    hint: "write the criterion as an EARS line: `WHEN <trigger> THEN the <System> SHALL <response>`",
  },
  "kiro-dangling-reference": {
    severity: "error",
    kinds: "kiro-spec",
    doc: "A task's `_Requirements:_` or a design property's `Validates:` cites a requirement or acceptance criterion (`6.7`, a range's member) that requirements.md does not have.",
    hint: "cite an acceptance criterion that exists, or add it to requirements.md",
  },
  "kiro-unparsed-reference": {
    severity: "warning",
    kinds: "kiro-spec",
    doc: "A reference token the gate cannot read as a requirement (`Testing Strategy`), or a range across requirements (`6.1-7.2`, only its ends are read).",
    hint: "cite criteria by number: `1.2`, `1`, `1.1-1.4`, or `All`",
  },
  "kiro-uncovered-criterion": {
    severity: "warning",
    kinds: "kiro-spec",
    doc: "An acceptance criterion no task and no design property cites (checked when the spec has a tasks.md).",
    hint: "cite the criterion in the `_Requirements:_` line of the task that implements it, or in a property's `Validates:` line",
  },
  "kiro-phantom-completion": {
    severity: "warning",
    kinds: "kiro-spec",
    doc: "A task marked done names a repository path in a code span that does not exist at the commit gated. A warning when read alone (the task may have been done before); against the base, a task the PR itself checks blocks (`kiro-task-phantom`).",
    hint: "create the file the task names, correct its path, or uncheck the task until it is done",
  },
  // openspec-change, openspec-spec (Fission-AI/OpenSpec: its validator's rules, docs/contracts.md#openspec-change)
  "openspec-delta-section": {
    severity: "error",
    kinds: "openspec-change",
    doc: "A delta spec (`changes/<id>/specs/<capability>/spec.md`) with no `## ADDED|MODIFIED|REMOVED|RENAMED Requirements` section (OpenSpec: an error), one written otherwise (two spaces, another word: OpenSpec does not read it), the same section twice (OpenSpec keeps only the last), or a `### Requirement:` under a `##` heading that is no delta section (ignored by OpenSpec).",
    hint: "head the requirements with `## ADDED Requirements`, `## MODIFIED Requirements`, `## REMOVED Requirements` or `## RENAMED Requirements`, written exactly so, each once",
  },
  "openspec-requirement-header": {
    severity: "error",
    kinds: "openspec-change, openspec-spec",
    doc: "A `###` heading where OpenSpec expects a requirement (in an ADDED or MODIFIED section, under a main spec's `## Requirements`) that is not `### Requirement: <name>`: OpenSpec ignores it and its scenarios (or reads a requirement with no name).",
    hint: "write the heading as `### Requirement: <name>`",
  },
  "openspec-requirement-text": {
    severity: "error",
    kinds: "openspec-change, openspec-spec",
    doc: "An ADDED or MODIFIED requirement (or a main spec's) whose text under the heading is empty or has no SHALL or MUST in upper case. OpenSpec ≥ 1.8 only warns (it errs up to 1.7); the gate requires the keyword, whatever language the rest is in: a requirement with no normative word states nothing a test can hold it to.",
    hint: "state the requirement under its heading with SHALL or MUST: `The system SHALL …`",
  },
  "openspec-scenario": {
    severity: "error",
    kinds: "openspec-change, openspec-spec",
    doc: "An ADDED or MODIFIED requirement (or a main spec's) with no `#### Scenario:` heading under it (`- **Scenario:**` and `### Scenario:` are no scenarios to OpenSpec).",
    hint: "add at least one `#### Scenario: <name>` under the requirement, with `- **WHEN** …` and `- **THEN** …` lines",
  },
  "openspec-conflict": {
    severity: "error",
    kinds: "openspec-change, openspec-spec",
    doc: "A requirement name twice in one delta section or main spec, one name in two of ADDED, MODIFIED and REMOVED, or a RENAMED pair that collides (MODIFIED names its old name, its new name is ADDED, its old name is REMOVED): OpenSpec refuses the change.",
    hint: "keep each requirement name once per section and in one section only; after a rename, MODIFIED names the new name",
  },
  "openspec-renamed": {
    severity: "error",
    kinds: "openspec-change",
    doc: "A RENAMED entry that is not a `- FROM:` line followed by its `- TO:` line, each naming `### Requirement: <name>` (OpenSpec drops a TO with no FROM silently).",
    hint: "write each rename as two lines, `- FROM: ### Requirement: <old>` then `- TO: ### Requirement: <new>` (the header may sit in backticks)",
  },
  "openspec-no-delta": {
    severity: "error",
    kinds: "openspec-change",
    doc: "A change with no delta entry in any `specs/<capability>/spec.md` (and no `skip_specs: true` in `.openspec.yaml`), or a delta file whose sections hold no entry: OpenSpec refuses it.",
    hint: "add `specs/<capability>/spec.md` with a `## ADDED Requirements` section holding at least one `### Requirement: <name>`",
  },
  "openspec-base-mismatch": {
    severity: "error",
    kinds: "openspec-change",
    doc: "A delta that does not apply to its main spec `openspec/specs/<capability>/spec.md`: a MODIFIED, REMOVED or RENAMED name the main spec does not have (or there is no main spec), an ADDED or RENAMED-to name it already has, a MODIFIED block that drops a scenario the main spec still has. `openspec archive` would refuse it later.",
    hint: "copy the requirement's header from the main spec exactly (names are case-sensitive), or use ADDED for a new requirement",
  },
  "openspec-spec-section": {
    severity: "error",
    kinds: "openspec-spec",
    doc: "A main spec without a non-empty `## Purpose` or without `## Requirements`, holding a delta header (`## ADDED Requirements` belongs in a change), or a `### Requirement:` outside `## Requirements`.",
    hint: "write the main spec as `## Purpose` (a paragraph), then `## Requirements` with the `### Requirement: <name>` blocks",
  },
  "openspec-task": {
    severity: "error",
    kinds: "openspec-change",
    doc: "A task in a change's `tasks.md` numbered for another group (`- [ ] 2.1` under `## 1. …`) or with a number used twice.",
    hint: "number each task under its group: `## 1. <group>` then `- [ ] 1.1 <task>`, `- [ ] 1.2 <task>`",
  },
  "openspec-proposal": {
    severity: "warning",
    kinds: "openspec-change",
    doc: "`proposal.md` without a `## Why` or a `## What Changes` section (OpenSpec's archive warns).",
    hint: "write the proposal's `## Why` (the problem, 50–1000 characters) and `## What Changes` (bullets)",
  },
  // Sharding over a job matrix (docs/sharding.md): reported by the merge, on the shard's report
  "shard-report-missing": {
    severity: "error",
    kinds: "all",
    doc: "A shard of the matrix left no report where the merge looked (its job failed or was cancelled before uploading): its contracts never ran, so the merged gate fails.",
    hint: "re-run the failed matrix leg (Re-run failed jobs), then the merge job; upload with `if: !cancelled()` so a leg with failing checks still uploads (docs/sharding.md)",
  },
  "shard-report-invalid": {
    severity: "error",
    kinds: "all",
    doc: "A shard report is truncated, oversized, not JSON or not the report's schema, or its name disagrees with its `shard` block: none of it is used.",
    hint: "re-run the leg that wrote the file; upload the file the `report-file` output names, unchanged",
  },
  "shard-report-mismatch": {
    severity: "error",
    kinds: "all",
    doc: "A shard report is from another commit, gate version, workflow run, scope or shard count than the merge: none of it is used.",
    hint: "run every leg and the merge on the same commit, gate ref and inputs, and download only this run's artifacts (docs/sharding.md)",
  },
  "shard-report-duplicate": {
    severity: "error",
    kinds: "all",
    doc: "Two shard reports claim one index with the same run attempt (a later attempt wins): neither is used.",
    hint: "give each leg its own artifact name (`shard-` and the matrix value) with `overwrite: true`",
  },
  "shard-scope-mismatch": {
    severity: "error",
    kinds: "all",
    doc: "The shards' contracts are not exactly the merge's scope: a contract outside it, in two shards, or in none.",
    hint: "give the matrix legs and the merge job the same `contracts`, `scope` and `working-directory` inputs",
  },
} as const satisfies Record<string, ProblemCodeRecord>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** The fix for a code when its finder gave none. */
export function defaultHint(code: ProblemCode): string {
  return PROBLEM_CODES[code].hint;
}
