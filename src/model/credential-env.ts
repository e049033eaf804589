/**
 * Which variables the gate drops before any command runs (src/process/env.ts
 * applies them): data, here, so docs/security.md's generated table reads it
 * without importing the process layer.
 */

export interface EnvRule {
  /** `exact`: the whole name; `prefix`: the name starts with it; `contains`: anywhere in the name. */
  match: "exact" | "prefix" | "contains";
  /** Compared case-insensitively: dropping too much is safe, leaking is not. */
  pattern: string;
  why: string;
}

/** Every rule a variable is dropped by, in documentation order. */
export const CREDENTIAL_ENV_RULES: readonly EnvRule[] = [
  { match: "exact", pattern: "GITHUB_TOKEN", why: "the workflow's repository token" },
  { match: "prefix", pattern: "INPUT_", why: "action inputs, which may carry tokens" },
  {
    match: "prefix",
    pattern: "ACTIONS_",
    why: "runner runtime, cache and OIDC id-token request credentials",
  },
  { match: "exact", pattern: "GITHUB_ENV", why: "file command: would let a check set job env" },
  { match: "exact", pattern: "GITHUB_OUTPUT", why: "file command: would let a check set outputs" },
  { match: "exact", pattern: "GITHUB_PATH", why: "file command: would let a check alter PATH" },
  { match: "exact", pattern: "GITHUB_STATE", why: "file command: action state" },
  {
    match: "exact",
    pattern: "GITHUB_STEP_SUMMARY",
    why: "file command: would let a check write the job summary",
  },
  { match: "contains", pattern: "TOKEN", why: "likely a credential" },
  { match: "contains", pattern: "SECRET", why: "likely a credential" },
  { match: "contains", pattern: "PASSWORD", why: "likely a credential" },
  { match: "contains", pattern: "PRIVATE_KEY", why: "likely a credential" },
];
