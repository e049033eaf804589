import {
  JS_EXT,
  JS_RUNNER_CONFIGS,
  PM_CONFIG_FILES,
  PROGRAM_FILE_FLAGS,
  PYTHON_CONFIG_FILES,
  STATIC_COMMANDS,
} from "./harness-resolve.js";
import { TASK_RUNNER_FILES } from "./harness-task-runners.js";

const code = (s: string) => `\`${s}\``;

/**
 * docs/integrity.md's resolution table: what each command a check runs
 * resolves to. Generated from the resolver's own lists so the docs cannot
 * fall behind the code (test/docs.test.ts).
 */
export function harnessTable(): string {
  const configs = Object.entries(JS_RUNNER_CONFIGS)
    .map(([runner, bases]) => `${code(runner)}: ${bases.map((b) => code(`${b}.*`)).join(", ")}`)
    .join("; ");
  const rows: [string, string][] = [
    [
      "`npm test`/`start`/`stop`/`restart`, `npm run X`, `pnpm [run] X`, `yarn [run] X`, `bun run X` (`--prefix`, `-C`, `--dir`, `--cwd` honoured)",
      `\`package.json\` \`scripts.X\` where it runs, with \`scripts.preX\` and \`scripts.postX\` (absent ones too: one the PR adds is a change), each script's commands resolved in turn; ${PM_CONFIG_FILES.map(code).join(", ")} there and at the root, present or added`,
    ],
    [
      "`make [-C dir] [-f file] [X …]`",
      "the Makefile (`GNUmakefile`, `makefile`, `Makefile`) rule of each target X (a bare `make`: the first target), its prerequisites' rules, every `include`d file whole; each recipe line's commands (and `$(MAKE)`) resolved in turn",
    ],
    [
      "`sh|bash|zsh|dash|ksh FILE`, `bash -c LINE`, `source FILE`, `. FILE`, `./FILE`, `dir/FILE`",
      "FILE, whole; a `-c` line is resolved as a line",
    ],
    [
      "`node|python|python3|ruby|perl|tsx|ts-node|bun|deno run|php FILE` (`-r`/`--require`/`--import`/`--loader` modules too)",
      "FILE, whole, and each local module loaded before it; `-c`/`-e` code is in the line itself",
    ],
    [
      "`npx X`, `bunx X`, `pnpx X`, `pnpm exec X`, `pnpm dlx X`, `yarn exec X`",
      "X resolved as a command",
    ],
    [
      "`vitest`, `jest`, `mocha`, `playwright` (as a command, a script's bin or through `npx`)",
      `their configuration files where they run (${configs}; any of ${JS_EXT.map(code).join(", ")}), present or added; \`package.json\` \`jest\` for jest; the local \`setupFiles\`, \`setupFilesAfterEnv\`, \`globalSetup\`, \`globalTeardown\`, \`require\` files the configuration names`,
    ],
    [
      "`pytest`, `py.test`, `python -m pytest`",
      `\`pytest.ini\`, \`.pytest.ini\`, \`pyproject.toml\` \`[tool.pytest]\`, \`setup.cfg\` \`[tool:pytest]\`, \`tox.ini\` \`[pytest]\`, ${PYTHON_CONFIG_FILES.map(code).join(", ")}, present or added; \`conftest.py\` where it runs and in every directory on the path to the tests it names (with no path named: every \`conftest.py\` the PR changes beneath it)`,
    ],
    [
      "`cargo …`",
      "`.cargo/config` and `.cargo/config.toml` where it runs and in every directory above",
    ],
    [
      "`tox [-e X]`",
      "`tox.ini` `[testenv]` and `[testenv:X]` (without `-e`: a warning, every environment runs)",
    ],
    [
      "`just [-f FILE] [X …]`",
      `the justfile (${TASK_RUNNER_FILES.just.map(code).join(", ")}) where it runs or in the nearest directory above, whole, and each file it \`import\`s; the commands of recipe X (a bare \`just\`: the first recipe) and of its dependencies resolved in turn (a shebang recipe, an interpolated \`{{…}}\` line or a \`mod\`: a warning)`,
    ],
    [
      "`task [-t FILE] [X …]`",
      `the Taskfile (${TASK_RUNNER_FILES.task.map(code).join(", ")}) where it runs or in the nearest directory above, whole, and each file it \`includes\`; the \`cmds\` of task X (a bare \`task\`: \`default\`), its \`deps\` and the tasks it calls resolved in turn, in its \`dir\` (an included namespace's task \`ns:X\` or an interpolated \`{{…}}\` command: a warning)`,
    ],
    [
      "`nox [-f FILE] -s X`",
      "`noxfile.py` where it runs, whole, and a warning: its sessions are Python (`session.run`), so what they run beyond the file is not followed",
    ],
    ["`go …`", "nothing more: the tests themselves are read by the tamper reading"],
    [
      `${Object.entries(PROGRAM_FILE_FLAGS)
        .map(
          ([tool, f]) =>
            code(`${tool} -f FILE`) + (f.long === "--file" ? "" : ` (${code(f.long)})`),
        )
        .join(", ")}, \`--file=FILE\`, a bundle such as \`-qf FILE\``,
      "FILE, whole: it is the tool's program (patterns, script, filter)",
    ],
    [
      "`find … -exec|-execdir|-ok CMD … ;`",
      "CMD resolved as a command (a found file run as the program: a warning)",
    ],
    [
      "`env [-u X] [-C DIR] [VAR=…]`, `timeout [-k T] [-s SIG] DURATION`, `nice [-n N]`, `ionice`, `nohup`, `time`, `stdbuf`, `setsid`, `xargs`, `exec`, `command`, `VAR=… CMD`",
      "the command they run, resolved as a command (in DIR for `env -C`)",
    ],
    [
      STATIC_COMMANDS.map(code).join(", "),
      "nothing: they run no file of the tree that their line does not name (beyond `-f FILE` above)",
    ],
    [
      "the requirement proof's test command, for each base spec with a requirement map (the proof on)",
      "the `test-command` input (CLI `--test-command`), or the runner detection would choose at base, with `{files}` the spec's mapped tests: resolved as a check's line by the rows above, named `the proof's test command`",
    ],
    [
      "`eval`, `$CMD` as a command, `cd $DIR`, `pnpm -r`/`--filter`/`--workspaces`, `include $(VAR)`, any other command",
      "a `check-harness-unresolved` warning naming the check and why",
    ],
  ];
  return [
    "| a check's command | what it runs (compared with the base) |",
    "|---|---|",
    ...rows.map(([c, r]) => `| ${c} | ${r} |`),
  ].join("\n");
}
