/**
 * The variables every command the gate starts gets without a grant (docs/security.md's
 * table is generated from it): none of them a credential. Data only, so the docs
 * generator and the environment builder (src/process/env.ts) read the same rows.
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
