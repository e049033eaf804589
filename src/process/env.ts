import { delimiter } from "node:path";

/**
 * Commands and oracles come from contracts in the repository under review, so
 * they get an environment that is built, not filtered: the variables of
 * CHECK_ENV_TABLE (none of them a credential), and those the maintainer
 * grants by name (`check-env`). Everything else the job holds — however it is
 * named — is withheld: a denylist of "secret-looking" names lets through
 * `DATABASE_URL`, `OPENAI_API_KEY` and `SLACK_WEBHOOK_URL`.
 */

/**
 * How an allowed variable's value is passed:
 * `as-is`; `directory` (an absolute path, and inside the check's view when
 * sandboxed, else withheld); `path-list` (a `:`-separated list of directories,
 * each kept only when absolute and inside the view).
 */
export type EnvValueRule = "as-is" | "directory" | "path-list";

export interface EnvEntry {
  /** The name, or with `prefix` every name starting with it; compared case-insensitively. */
  name: string;
  prefix?: true;
  /** What kind of variable: the docs group by it. */
  group:
    | "locale and terminal"
    | "workflow context"
    | "toolchain directory"
    | "CA certificates"
    | "Windows";
  value: EnvValueRule;
  why: string;
}

const locale = (name: string, why: string, prefix?: true): EnvEntry => ({
  name,
  group: "locale and terminal",
  value: "as-is",
  why,
  ...(prefix && { prefix }),
});
const context = (name: string, why: string): EnvEntry => ({
  name,
  group: "workflow context",
  value: "as-is",
  why,
});
const dir = (name: string, why: string, prefix?: true): EnvEntry => ({
  name,
  group: "toolchain directory",
  value: "directory",
  why,
  ...(prefix && { prefix }),
});
/** A CA bundle (a proxy's, a corporate root): files the network needs, never a private key. */
const ca = (name: string): EnvEntry => ({
  name,
  group: "CA certificates",
  value: "directory",
  why: "trusted CA certificates (a file or directory inside the view)",
});
const win = (name: string, why: string, value: EnvValueRule = "as-is"): EnvEntry => ({
  name,
  group: "Windows",
  value,
  why,
});

/**
 * Every variable a check gets without a grant, with why: the one table the
 * builder, the redaction (these values are not secrets) and docs/security.md
 * read. A name belongs here only when no workflow would put a credential in it.
 */
export const CHECK_ENV_TABLE: readonly EnvEntry[] = [
  {
    name: "PATH",
    group: "locale and terminal",
    value: "path-list",
    why: "the gate's, without entries outside the check's view",
  },
  dir("HOME", "the private home (sandboxed: an empty tmpfs at the same path)"),
  locale("LANG", "locale"),
  locale("LANGUAGE", "locale"),
  locale("LC_", "locale categories", true),
  locale("TZ", "time zone"),
  locale("TERM", "terminal type"),
  locale("NO_COLOR", "colour preference"),
  locale("FORCE_COLOR", "colour preference"),
  locale("USER", "the user's name"),
  locale("LOGNAME", "the user's name"),
  context("CI", "tools behave as in CI"),
  context("GITHUB_ACTIONS", "tools behave as in Actions"),
  context("GITHUB_SHA", "the commit"),
  context("GITHUB_REF", "the ref"),
  context("GITHUB_REF_NAME", "the ref's short name"),
  context("GITHUB_REF_TYPE", "branch or tag"),
  context("GITHUB_HEAD_REF", "the pull request's branch"),
  context("GITHUB_BASE_REF", "the pull request's base branch"),
  context("GITHUB_REPOSITORY", "owner/name"),
  context("GITHUB_REPOSITORY_OWNER", "the owner"),
  context("GITHUB_WORKSPACE", "the checkout's path"),
  context("GITHUB_EVENT_NAME", "the triggering event"),
  context("GITHUB_RUN_ID", "the run"),
  context("GITHUB_RUN_NUMBER", "the run's number"),
  context("GITHUB_RUN_ATTEMPT", "the run's attempt"),
  context("GITHUB_JOB", "the job's id"),
  context("GITHUB_WORKFLOW", "the workflow's name"),
  context("GITHUB_ACTOR", "who triggered the run"),
  context("GITHUB_SERVER_URL", "github.com or the GHES host"),
  context("GITHUB_API_URL", "the API's URL"),
  context("GITHUB_GRAPHQL_URL", "the GraphQL API's URL"),
  context("GITHUB_WORKFLOW_REF", "the workflow file at its ref"),
  context("GITHUB_WORKFLOW_SHA", "the workflow file's commit"),
  context("GITHUB_ACTION", "the step's id"),
  context("GITHUB_ACTION_REPOSITORY", "the action's repository"),
  context("GITHUB_ACTION_REF", "the action's ref"),
  context("GITHUB_ACTOR_ID", "who triggered the run, by id"),
  context("GITHUB_TRIGGERING_ACTOR", "who started this attempt"),
  context("GITHUB_REPOSITORY_ID", "the repository's id"),
  context("GITHUB_REPOSITORY_OWNER_ID", "the owner's id"),
  context("GITHUB_RETENTION_DAYS", "artifact retention"),
  context("RUNNER_NAME", "the runner's name"),
  context("ImageOS", "the hosted runner's image"),
  context("ImageVersion", "the hosted runner's image version"),
  context("RUNNER_OS", "Linux, macOS or Windows"),
  context("RUNNER_ARCH", "X64, ARM64 …"),
  context("RUNNER_ENVIRONMENT", "github-hosted or self-hosted"),
  context("RUNNER_DEBUG", "debug logging requested"),
  dir("TMPDIR", "scratch space, when inside the view"),
  dir("RUNNER_TOOL_CACHE", "setup-* toolchains"),
  dir("AGENT_TOOLSDIRECTORY", "setup-* toolchains"),
  dir("JAVA_HOME", "a JDK"),
  dir("JAVA_HOME_", "the runner's other JDKs (JAVA_HOME_17_X64 …)", true),
  dir("GOROOT", "the Go toolchain"),
  dir("GOROOT_", "the runner's other Go toolchains", true),
  dir("GOPATH", "Go's workspace"),
  dir("GOMODCACHE", "Go's module cache"),
  dir("CARGO_HOME", "cargo"),
  dir("RUSTUP_HOME", "Rust toolchains"),
  dir("PYENV_ROOT", "pyenv"),
  dir("VIRTUAL_ENV", "the active Python virtualenv"),
  dir("pythonLocation", "setup-python's Python"),
  dir("Python_ROOT_DIR", "setup-python's Python (CMake)"),
  dir("Python2_ROOT_DIR", "setup-python's Python (CMake)"),
  dir("Python3_ROOT_DIR", "setup-python's Python (CMake)"),
  dir("CONDA", "conda"),
  dir("CONDA_PREFIX", "the active conda environment"),
  dir("PIPX_HOME", "pipx"),
  dir("PIPX_BIN_DIR", "pipx programs"),
  dir("NVM_DIR", "nvm"),
  dir("VOLTA_HOME", "Volta"),
  dir("BUN_INSTALL", "Bun"),
  dir("DENO_INSTALL", "Deno"),
  dir("DOTNET_ROOT", ".NET"),
  dir("SDKMAN_DIR", "SDKMAN"),
  dir("GRADLE_HOME", "Gradle"),
  dir("MAVEN_HOME", "Maven"),
  dir("M2_HOME", "Maven"),
  dir("ANDROID_HOME", "the Android SDK"),
  dir("ANDROID_SDK_ROOT", "the Android SDK"),
  dir("ANDROID_NDK", "the Android NDK", true),
  dir("CHROMEWEBDRIVER", "the runner's chromedriver"),
  dir("GECKOWEBDRIVER", "the runner's geckodriver"),
  dir("EDGEWEBDRIVER", "the runner's msedgedriver"),
  dir("GHCUP_INSTALL_BASE_PREFIX", "ghcup"),
  {
    name: "LD_LIBRARY_PATH",
    group: "toolchain directory",
    value: "path-list",
    why: "setup-python's shared libraries",
  },
  {
    name: "PKG_CONFIG_PATH",
    group: "toolchain directory",
    value: "path-list",
    why: "setup-* libraries' pkg-config files",
  },
  ca("SSL_CERT_FILE"),
  ca("SSL_CERT_DIR"),
  ca("NODE_EXTRA_CA_CERTS"),
  ca("REQUESTS_CA_BUNDLE"),
  ca("CURL_CA_BUNDLE"),
  ca("GIT_SSL_CAINFO"),
  ca("PIP_CERT"),
  ca("AWS_CA_BUNDLE"),
  win("SYSTEMROOT", "Windows: programs fail to start without it"),
  win("WINDIR", "Windows system directory"),
  win("COMSPEC", "Windows shell"),
  win("PATHEXT", "Windows executable extensions"),
  win("TEMP", "Windows scratch space"),
  win("TMP", "Windows scratch space"),
  win("USERPROFILE", "Windows home"),
];

const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * Names no grant can give: the runner's file commands (a check writing them
 * steers the job) and its internal credentials (cache, OIDC, inputs).
 */
const NEVER_GRANTED: readonly { name: string; prefix?: true; why: string }[] = [
  { name: "GITHUB_ENV", why: "a file command: a check could set the job's environment" },
  { name: "GITHUB_OUTPUT", why: "a file command: a check could set outputs" },
  { name: "GITHUB_PATH", why: "a file command: a check could alter PATH" },
  { name: "GITHUB_STATE", why: "a file command: action state" },
  { name: "GITHUB_STEP_SUMMARY", why: "a file command: a check could write the job summary" },
  { name: "ACTIONS_", prefix: true, why: "the runner's runtime, cache and OIDC credentials" },
  { name: "INPUT_", prefix: true, why: "the gate's own inputs (its token)" },
];

/**
 * Withheld from checks (nothing needs them) but no secret, so never redacted:
 * npm's description of the running script (`npm_package_name` would redact
 * the package's name from every report) and the shell's own bookkeeping.
 */
export const NOT_SECRET: readonly { name: string; prefix?: true; why: string }[] = [
  { name: "npm_package_", prefix: true, why: "the package.json of the script npm runs" },
  { name: "npm_lifecycle_", prefix: true, why: "the npm script running" },
  { name: "npm_command", why: "the npm command running" },
  { name: "npm_execpath", why: "npm's path" },
  { name: "npm_node_execpath", why: "node's path" },
  { name: "INIT_CWD", why: "where npm was started" },
  { name: "PWD", why: "the shell's directory" },
  { name: "OLDPWD", why: "the shell's directory" },
  { name: "SHELL", why: "the login shell" },
  { name: "SHLVL", why: "shell depth" },
  { name: "_", why: "the shell's last command" },
  { name: "HOSTNAME", why: "the machine's name" },
  { name: "DEBIAN_FRONTEND", why: "apt's mode" },
  { name: "XDG_", prefix: true, why: "desktop directories" },
  { name: "VITEST", prefix: true, why: "the test runner's bookkeeping" },
  { name: "NODE_ENV", why: "development or production" },
];

function nameMatches(entry: { name: string; prefix?: true }, name: string): boolean {
  const a = entry.name.toUpperCase();
  const b = name.toUpperCase();
  return entry.prefix ? b.startsWith(a) : a === b;
}

/** The table's entry for `name`, or undefined when the name is not allowed by default. */
export function envEntryFor(name: string): EnvEntry | undefined {
  return CHECK_ENV_TABLE.find((e) => nameMatches(e, name));
}

/** A grant, split and checked: names only, each a valid variable name a grant may give. */
export function parseEnvGrant(
  items: readonly string[],
): { ok: true; names: string[] } | { ok: false; errors: string[] } {
  const names: string[] = [];
  const errors: string[] = [];
  for (const raw of items.flatMap((i) => i.split(/[\s,]+/)).filter(Boolean)) {
    if (raw.includes("=")) {
      errors.push(
        `'${raw}' gives a value: name the variable only (its value comes from the job's environment)`,
      );
    } else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw)) {
      errors.push(
        `'${raw}' is not a variable name (letters, digits and _, not starting with a digit)`,
      );
    } else {
      const never = NEVER_GRANTED.find((n) => nameMatches(n, raw));
      if (never) errors.push(`'${raw}' cannot be granted: ${never.why}`);
      else if (!names.includes(raw)) names.push(raw);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, names };
}

export interface CheckEnv {
  /** The environment every command the gate starts gets. */
  env: Record<string, string>;
  /** Granted names the job set (and so the checks got); never their values. */
  granted: string[];
  /** Granted names the job did not set. */
  grantedUnset: string[];
  /** The job's variables checks did not get, sorted: the report names them, the hints look for them. */
  withheld: string[];
}

export interface CheckEnvInput {
  /** Names `check-env` grants (already checked by parseEnvGrant). */
  grant?: readonly string[];
  /**
   * Whether a directory is inside the check's view (the sandbox's); absent
   * without a boundary, where every absolute path is kept.
   */
  visible?: (path: string) => boolean;
}

/** The checks' environment, built from the job's `env` by the table and the grant. Pure. */
export function checkEnv(env: NodeJS.ProcessEnv, input: CheckEnvInput = {}): CheckEnv {
  const visible = input.visible ?? (() => true);
  const grant = input.grant ?? [];
  const out: Record<string, string> = {};
  const withheld: string[] = [];
  const isGranted = (name: string) => grant.includes(name);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isGranted(name)) {
      out[name] = value;
      continue;
    }
    const entry = envEntryFor(name);
    const passed = entry === undefined ? undefined : passValue(entry.value, value, visible);
    if (passed === undefined) withheld.push(name);
    else out[name] = passed;
  }
  // Without a PATH nothing is found by name; the system's directories are in every view.
  if (out.PATH === undefined && process.platform !== "win32") out.PATH = DEFAULT_PATH;
  return {
    env: out,
    granted: grant.filter((n) => env[n] !== undefined),
    grantedUnset: grant.filter((n) => env[n] === undefined),
    withheld: withheld.sort(),
  };
}

function passValue(
  rule: EnvValueRule,
  value: string,
  visible: (path: string) => boolean,
): string | undefined {
  const usable = (p: string) => isAbsolutePath(p) && visible(p);
  switch (rule) {
    case "as-is":
      return value;
    case "directory":
      return usable(value) ? value : undefined;
    case "path-list": {
      const kept = value.split(delimiter).filter((p) => p !== "" && usable(p));
      return kept.length > 0 ? kept.join(delimiter) : undefined;
    }
  }
}

/** POSIX `/…`, or a Windows drive path (`C:\…`) for the CLI off Linux. */
function isAbsolutePath(p: string): boolean {
  return p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p);
}

/**
 * The values the surfaces must never show (report/redact.ts): every job
 * variable not in the table, the granted ones too, at least 8 characters
 * long. Left out: absolute paths (a directory is no credential, and paths
 * fill every report) and values the table passes anyway (`GITHUB_WORKFLOW_SHA`
 * is the commit `GITHUB_SHA` names).
 */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const open = new Set<string>();
  const notSecret = (name: string) =>
    envEntryFor(name) !== undefined ||
    NOT_SECRET.some((n) => nameMatches(n, name)) ||
    // The gate's own inputs are its configuration (globs, names the report quotes), but its token.
    (/^INPUT_/i.test(name) && !/TOKEN/i.test(name));
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && notSecret(name)) open.add(value);
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < 8 || notSecret(name)) continue;
    if (open.has(value) || /^(\/[\w.@-]+)+\/?$/.test(value)) continue;
    out.add(value);
  }
  return [...out];
}
