export const MAIN_HELP = `contract-gate — validate acceptance contracts and gate pull requests on them

Usage: contract-gate <command> [options] [PATH...]

Commands:
  validate [PATH...]        check contracts are well-formed and match their plans
  run [PATH...]             re-run every check fail-closed and decide each criterion
  merge DIR                 merge the shard reports of 'run --shard i/n' into one verdict
  status [PATH...]          show each contract's criteria and recorded state (never runs or writes anything)
  refresh-hash CONTRACT     record the current phase-N-plan.md hash in a plan contract

Run 'contract-gate help <command>' (or '<command> --help') for a command's options
and exit codes. 'contract-gate --version' prints the version.
Exit codes: 0 ok, 1 a contract has errors or something blocks, 2 usage or configuration error,
128+n ended by a signal (run: 130 SIGINT, 143 SIGTERM, 129 SIGHUP).
`;

const DISCOVERY = `  PATH                      contract files or directories (default: the repository root)
  --root DIR                repository root (default: the git top-level of the current directory)
  --contracts GLOB          also discover files matching GLOB (repeatable); defaults:
                              .planning/phase-*-contract.json
                              .claude/tasks/contracts/**/*.md
                              plans/**/*plan.json, qr-*.json, context.json (planner)
                              .workphase/*/research.json, .workphase/*/plan.json
                              (all of them: README, Your first contract)
  --json                    print a machine-readable report (schemaVersion 1)
  -h, --help                show this help`;

const USAGE_EXIT =
  "  2  usage or configuration error (unknown option, bad value, missing path, git failure)";

export const COMMAND_HELP: Record<string, string> = {
  validate: `Usage: contract-gate validate [options] [PATH...]

Parse every contract, apply the format's rules and compare plan contracts with
their phase-N-plan.md. Prints 'path:line:col: error|warning CODE message'.

Options:
${DISCOVERY}
  --base REV                compare each contract changed since the merge base of REV and
                            HEAD with its version there; a deleted criterion, changed oracle,
                            edited REQUEST or weakened check blocks (see docs/integrity.md);
                            a done task whose file is missing blocks only when the change
                            checked it off (without --base it warns)
  --committed               run only what is committed: a contract whose file, plan, evidence
                            or research in the working tree differs from HEAD runs nothing and
                            blocks (worktree-modified); always on when CI is set

Exit codes:
  0  no contract has an error (warnings allowed)
  1  a contract has an error, or (with --base) a contract change blocks
${USAGE_EXIT}
`,
  status: `Usage: contract-gate status [options] [PATH...]

Show per contract its kind, validity and drift, and per criterion what the file
records (recorded MET / recorded NOT-MET / pending / abandoned / manual).
Never executes a check and never writes a file.

Options:
${DISCOVERY}

Exit codes:
  0  the states were shown (invalid or drifted contracts included)
${USAGE_EXIT}
`,
  run: `Usage: contract-gate run [options] [PATH...]

Re-run every check of every contract, itself, and decide each criterion:
met, unmet, evidence-missing, error (could not run), abandoned, manual, or
not-run (the contract is invalid, drifted or aborted). Recorded evidence is
never trusted. Commands run without credentials in their environment.

Options:
${DISCOVERY}
  --base REV                compare each contract changed since the merge base of REV and
                            HEAD with its version there; a deleted criterion, changed oracle,
                            edited REQUEST or weakened check blocks (see docs/integrity.md);
                            a done task whose file is missing blocks only when the change
                            checked it off (without --base it warns)
  --committed               run only what is committed: a contract whose file, plan, evidence
                            or research in the working tree differs from HEAD runs nothing and
                            blocks (worktree-modified); always on when CI is set
  --changed-since REF       only contracts changed between REF and the working tree
                            (a change to phase-N-plan.md, phase-N-evidence.json or, for a
                            .workphase plan, its research.json counts)
  --max-parallel N          concurrent check processes (default: number of CPUs)
  --timeout-seconds N       oracle (CHECK:) timeout (default 120)
  --regex-timeout-ms N      time bound for one regex operation (default 10000)
  --require-oracles         manual (oracle-free) criteria block
  --no-write                write nothing (default: EVIDENCE lines, phase-N-verification.{json,md})
  --markdown                print the report as GitHub-flavoured markdown
  --markdown-budget N       markdown size limit in characters and bytes (default 65535)
  --sandbox MODE            auto (default): run commands in a Linux namespace sandbox when one is
                            available (root or sudo -n), else unsandboxed with a warning;
                            required: no sandbox, no command runs; off: never sandbox
  --check-memory-mb N       memory cap of each sandboxed check (default 4096)
  --sandbox-read PATH       a path checks may also read (read-only), besides the tree, the system
                            directories and the toolchains under $HOME (absolute or ~/...;
                            repeatable or comma-separated); a missing path is a usage error
  --check-network MODE      none (default): loopback only, per check (a check may serve and
                            test on 127.0.0.1); host: checks share the runner's network
                            (service containers on localhost)
  --check-env NAME,NAME     environment variables checks get besides the built environment
                            (PATH, HOME, locale, CI, workflow context, toolchain directories;
                            docs/security.md); values come from this environment and are
                            never shown; repeatable or comma-separated
  --requirement-proof MODE  mutation (default; also on): requirement specs' mapped tests are
                            proved fail-to-pass against --base and must make a mutant of the
                            changed code fail (docs/proof.md); fail-to-pass: without mutants;
                            off: they stay awaiting proof
  --requirement-map MODE    optional (default): a spec without a ## Requirement Map is gated on
                            everything else, its requirements shown unmapped; required: it
                            blocks (criterion MAP)
  --test-tamper             with --base: read the test diff for tampering even when no
                            requirement spec is in scope (always read when one is)
  --test-command CMD        how the proof runs tests: a template ({junit}, {files}) or a preset
                            (vitest, jest, pytest, go, node); default: detected
  --test-files GLOB         a test-file glob (repeatable), replacing the defaults in docs/proof.md
  --test-timeout-seconds N  limit of each test-runner invocation of the proof (default 600)
  --mutants-per-requirement N  mutants of the changed code tried per requirement (default 8)
  --mutation-timeout-seconds N  the whole mutation step's budget (default 300)
  --shard I/N               run only shard I of N (1 ≤ I ≤ N ≤ 256) of the contracts in scope,
                            whole contracts balanced by their checks; the report gets a shard
                            block, the exit code is 0 unless the run itself fails (the merge
                            decides); --base is then the requirement proof's base only: the
                            merge compares the contracts (docs/sharding.md)
  --report-file PATH        also write the JSON report to PATH (atomically); with --shard and a
                            directory, as PATH/contract-gate-shard-I-of-N.json

Exit codes:
  0  nothing blocks (or no contracts)
  1  something blocks: a criterion unmet, errored or abandoned, a contract invalid,
     drifted or aborted, or (with --base) a contract change
${USAGE_EXIT}
  130, 143, 129  ended by SIGINT, SIGTERM or SIGHUP (128 + n): every check was killed
`,
  merge: `Usage: contract-gate merge [options] DIR

Merge the reports 'run --shard I/N --report-file DIR' wrote (in DIR or one level
down) into one run. The scope is recomputed from this checkout: every shard
1..N must be there, of the same commit, gate version, workflow run and scope,
its contracts exactly the scope, each in one shard (of several reports for one
shard, the newest run attempt wins), each requirement spec proved against
this merge's base. Anything else is a failing row naming the file, never a
green merge (docs/sharding.md).

Options:
  --root DIR                repository root (default: the git top-level of the current directory)
  --contracts GLOB          the discovery the shards used (repeatable)
  --changed-since REF       the --changed-since the shards used
  --base REV                compare the changed contracts with the merge base of REV and HEAD
                            (done here, not in the shards; see docs/integrity.md); every
                            shard must have proved its specs against the same base
  --requirement-proof MODE  the shards' requirement-proof (on by default; must agree)
  --requirement-map MODE    optional (default) or required, as in run
  --test-tamper             with --base: read the test diff for tampering, as in run
  --test-files GLOB         the shards' test-file globs (repeatable)
  --json                    print the merged report (schemaVersion 1)
  --markdown                print the merged report as GitHub-flavoured markdown
  --markdown-budget N       markdown size limit in characters and bytes (default 65535)
  -h, --help                show this help

Exit codes:
  0  nothing blocks
  1  something blocks, or a shard is missing, invalid or inconsistent
${USAGE_EXIT}
`,
  "refresh-hash": `Usage: contract-gate refresh-hash [options] CONTRACT

Rewrite only the "source_plan_hash" value of a plan contract to the SHA-256 of
the phase-N-plan.md beside it, atomically. Every other byte stays as it is.
Review the plan change first: refreshing the hash declares the contract current.

Options:
  --root DIR                repository root (default: the git top-level of the current directory)
  -h, --help                show this help

Exit codes:
  0  the hash was rewritten, or already matched the plan
  1  no plan pairs with the contract, the plan cannot be read, or the contract's
     source_plan_hash cannot be rewritten (not UTF-8 or JSON, missing, duplicated, not a string)
  2  usage error: not exactly one CONTRACT, outside the root, not a .json plan contract,
     or the contract does not exist or cannot be read
`,
};
