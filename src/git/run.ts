import { execFile, spawn } from "node:child_process";

/**
 * The most any one git command may print: the largest answer the gate asks
 * for is a `--name-status` listing of a PR's every file, or a batch of blobs
 * each at most the contract cap.
 */
export const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

/**
 * The environment of every git command the gate runs. The repository is the
 * PR author's (and, on a reused workspace, what an earlier run's checks left
 * in `.git`), so nothing it controls may change what git reports or run
 * code: no replace objects, no grafts, no system or global config, no
 * prompts. docs/security.md, "What the gate reads from git".
 */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Only what git needs to find itself and its helpers; never GIT_* from the caller.
  for (const key of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "SSH_AUTH_SOCK"]) {
    if (base[key] !== undefined) env[key] = base[key];
  }
  return {
    ...env,
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_GRAFT_FILE: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
  };
}

/**
 * Configuration every command gets on its command line (which beats the
 * repository's own `.git/config`): no hooks, no fsmonitor daemon, no
 * attributes file, no `ext::` transport, no credential helper or proxy
 * command. `safe.directory` is trusted only from the command line: the gate
 * reads the checkout it was pointed at, as the owner of a container job's
 * workspace may differ.
 */
export const HARDENED_CONFIG: readonly string[] = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.attributesFile=/dev/null",
  "core.sshCommand=ssh",
  "protocol.ext.allow=never",
  "credential.helper=",
  "diff.external=",
  "gc.auto=0",
  "maintenance.auto=false",
  "fetch.recurseSubmodules=false",
  "submodule.recurse=false",
  "safe.directory=*",
];

/** A git command failed; `stderr` is its first line. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(`git ${args.join(" ")} failed: ${stderr || `exit ${exitCode}`}`);
  }
}

/** Run git in `cwd` with the hardened environment; stdout as bytes. Throws `GitCommandError`. */
export type GitRunner = (cwd: string, args: readonly string[], input?: string) => Promise<Buffer>;

/**
 * The one way the gate runs git. `extraConfig` is appended to the hardened
 * configuration (the filter drivers a repository defines, switched off);
 * `extraEnv` is set over the hardened environment (a private index file).
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  input?: string,
  extraConfig: readonly string[] = [],
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<Buffer> {
  const argv = [...[...HARDENED_CONFIG, ...extraConfig].flatMap((c) => ["-c", c]), ...args];
  const env = { ...gitEnv(), ...extraEnv };
  if (input === undefined) {
    return new Promise((resolve, reject) => {
      execFile(
        "git",
        argv,
        { cwd, env, encoding: "buffer", maxBuffer: MAX_GIT_OUTPUT },
        (err, stdout, stderr) => {
          if (err) {
            const code = typeof err.code === "number" ? err.code : null;
            reject(new GitCommandError(args, firstLine(stderr) || err.message, code));
          } else resolve(stdout);
        },
      );
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_GIT_OUTPUT) child.kill("SIGKILL");
      else out.push(c);
    });
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {}); // git exited early: 'close' reports it
    child.on("error", (e) => reject(new GitCommandError(args, e.message, null)));
    child.on("close", (code) => {
      if (size > MAX_GIT_OUTPUT) {
        reject(new GitCommandError(args, `output over ${MAX_GIT_OUTPUT} bytes`, code));
      } else if (code !== 0) {
        reject(new GitCommandError(args, firstLine(Buffer.concat(err)), code));
      } else resolve(Buffer.concat(out));
    });
    child.stdin.end(input);
  });
}

function firstLine(stderr: Buffer | string): string {
  return stderr.toString().trim().split("\n")[0] ?? "";
}
