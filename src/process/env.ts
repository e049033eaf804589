import { delimiter } from "node:path";

/**
 * Commands and oracles come from contracts in the repository under review, so
 * they get an environment that is built, not filtered: the variables of
 * CHECK_ENV_TABLE (none of them a credential), and those the maintainer
 * grants by name (`check-env`). Everything else the job holds — however it is
 * named — is withheld: a denylist of "secret-looking" names lets through
 * `DATABASE_URL`, `OPENAI_API_KEY` and `SLACK_WEBHOOK_URL`.
 */

import { CHECK_ENV_TABLE, type EnvEntry, type EnvValueRule } from "../model/check-env.js";

export { CHECK_ENV_TABLE, type EnvEntry, type EnvValueRule } from "../model/check-env.js";

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
