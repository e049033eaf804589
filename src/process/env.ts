/**
 * Commands and oracles come from contracts in the repository under review, so
 * they must never see the credentials of the job running the gate. This strips
 * them from the environment handed to every child process.
 */
import { CREDENTIAL_ENV_RULES, type EnvRule } from "../model/credential-env.js";

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
