export const MAIN_HELP = `contract-gate — validate acceptance contracts and gate pull requests on them

Usage: contract-gate <command> [options] [PATH...]

Commands:
  validate [PATH...]        check contracts are well-formed and match their plans
  run [PATH...]             re-run every check fail-closed and decide each criterion
  status [PATH...]          show each contract's criteria and recorded state (never runs or writes anything)
  refresh-hash CONTRACT     record the current phase-N-plan.md hash in a plan contract

Run 'contract-gate <command> --help' for a command's options.
Exit codes: 0 ok, 1 a contract has errors or something blocks, 2 usage or configuration error,
130 interrupted (run).
`;

const DISCOVERY = `  PATH                      contract files or directories (default: the repository root)
  --root DIR                repository root (default: the git top-level of the current directory)
  --contracts GLOB          also discover files matching GLOB (repeatable); defaults:
                              .planning/phase-*-contract.json
                              .claude/tasks/contracts/**/*.md
                              plans/**/*plan.json, qr-*.json, context.json (planner)
                              .workphase/*/research.json, .workphase/*/plan.json
                              (all of them: README, Default globs)
  --json                    print a machine-readable report (schemaVersion 1)
  -h, --help                show this help`;

export const COMMAND_HELP: Record<string, string> = {
  validate: `Usage: contract-gate validate [options] [PATH...]

Parse every contract, apply the format's rules and compare plan contracts with
their phase-N-plan.md. Prints 'path:line:col: error|warning CODE message'.
Exit 0 when there are no errors, 1 when any contract has an error
(or, with --base, a contract change blocks).

Options:
${DISCOVERY}
  --base REV                compare each contract changed since the merge base of REV and
                            HEAD with its version there; a deleted criterion, changed oracle,
                            edited REQUEST or weakened check blocks (see README, Contract integrity)
`,
  status: `Usage: contract-gate status [options] [PATH...]

Show per contract its kind, validity and drift, and per criterion what the file
records (recorded MET / recorded NOT-MET / pending / abandoned / manual).
Never executes a check and never writes a file. Exit 0 unless the command line is wrong.

Options:
${DISCOVERY}
`,
  run: `Usage: contract-gate run [options] [PATH...]

Re-run every check of every contract, itself, and decide each criterion:
met, unmet, evidence-missing, error (could not run), abandoned, manual, or
not-run (the contract is invalid, drifted or aborted). Recorded evidence is
never trusted. Commands run without credentials in their environment.
Exit 0 when nothing blocks (or no contracts), 1 when anything blocks.

Options:
${DISCOVERY}
  --base REV                compare each contract changed since the merge base of REV and
                            HEAD with its version there; a deleted criterion, changed oracle,
                            edited REQUEST or weakened check blocks (see README, Contract integrity)
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
`,
  "refresh-hash": `Usage: contract-gate refresh-hash [options] CONTRACT

Rewrite only the "source_plan_hash" value of a plan contract to the SHA-256 of
the phase-N-plan.md beside it, atomically. Every other byte stays as it is.
Review the plan change first: refreshing the hash declares the contract current.

Options:
  --root DIR                repository root (default: the git top-level of the current directory)
  -h, --help                show this help
`,
};
