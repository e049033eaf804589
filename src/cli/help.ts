export const MAIN_HELP = `contract-gate — validate acceptance contracts and gate pull requests on them

Usage: contract-gate <command> [options] [PATH...]

Commands:
  validate [PATH...]        check contracts are well-formed and match their plans
  status [PATH...]          show each contract's criteria and recorded state (never runs or writes anything)
  refresh-hash CONTRACT     record the current phase-N-plan.md hash in a plan contract

Run 'contract-gate <command> --help' for a command's options.
Exit codes: 0 ok, 1 a contract has errors, 2 usage or configuration error.
`;

const DISCOVERY = `  PATH                      contract files or directories (default: the repository root)
  --root DIR                repository root (default: the git top-level of the current directory)
  --contracts GLOB          also discover files matching GLOB (repeatable); defaults:
                              .planning/phase-*-contract.json
                              .claude/tasks/contracts/**/*.md
  --json                    print a machine-readable report (schemaVersion 1)
  -h, --help                show this help`;

export const COMMAND_HELP: Record<string, string> = {
  validate: `Usage: contract-gate validate [options] [PATH...]

Parse every contract, apply the format's rules and compare plan contracts with
their phase-N-plan.md. Prints 'path:line:col: error|warning CODE message'.
Exit 0 when there are no errors, 1 when any contract has an error.

Options:
${DISCOVERY}
`,
  status: `Usage: contract-gate status [options] [PATH...]

Show per contract its kind, validity and drift, and per criterion what the file
records (recorded MET / recorded NOT-MET / pending / abandoned / manual).
Never executes a check and never writes a file. Exit 0 unless the command line is wrong.

Options:
${DISCOVERY}
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
