/**
 * Commands and oracles come from contracts in the repository under review, so
 * they must never see the credentials of the job running the gate. This strips
 * them from the environment handed to every child process.
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

/** The first rule that drops `name`, or `undefined` when it is kept. */
export function credentialRuleFor(name: string): EnvRule | undefined {
  const upper = name.toUpperCase();
  return CREDENTIAL_ENV_RULES.find((rule) => matches(rule, upper));
}

function matches(rule: EnvRule, upperName: string): boolean {
  switch (rule.match) {
    case "exact":
      return upperName === rule.pattern;
    case "prefix":
      return upperName.startsWith(rule.pattern);
    case "contains":
      return upperName.includes(rule.pattern);
  }
}

/** A copy of `env` without any variable a rule drops. The input is not modified. */
export function credentialFreeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && credentialRuleFor(name) === undefined) out[name] = value;
  }
  return out;
}
