/**
 * Why a check may have failed because of what it was not given: a variable
 * the maintainer did not grant, or the network it does not have. Pure: the
 * executors append the hint to a failing check's reason, so every surface
 * shows it on the criterion.
 */
export interface EnvHintContext {
  /** The job's variables checks did not get (names only). */
  withheld: readonly string[];
  /** The checks' network (`none` unless the maintainer set `host`). */
  network: "host" | "none";
  /** Whose spelling the fix is written in: the action's input or the CLI's flag. */
  surface: "action" | "cli";
}

/** Outputs showing a refused connection or a failed name lookup (DNS), as common tools print them. */
const NETWORK_FAILURE =
  /\b(?:ENETUNREACH|EAI_AGAIN|ENOTFOUND|Network is unreachable|Temporary failure in name resolution|Could not resolve host|Name or service not known|getaddrinfo|nodename nor servname|No address associated with hostname|Failed to establish a new connection|Could not resolve)\b/i;

/** The hints for a failed check's output, joined into one sentence; undefined when none applies. */
export function envHint(output: string, ctx: EnvHintContext): string | undefined {
  const hints: string[] = [];
  const named = ctx.withheld.filter((name) => mentions(output, name));
  if (named.length > 0) {
    const list = named.slice(0, 5);
    const names = list.map((n) => `\`${n}\``).join(", ");
    const grant =
      ctx.surface === "action"
        ? `check-env: ${list.join(", ")}`
        : list.map((n) => `--check-env ${n}`).join(" ");
    hints.push(
      `${names} ${list.length === 1 ? "is" : "are"} not passed to checks; grant ${list.length === 1 ? "it" : "them"} with \`${grant}\``,
    );
  }
  if (ctx.network === "none" && NETWORK_FAILURE.test(output)) {
    const setting = ctx.surface === "action" ? "check-network: host" : "--check-network host";
    hints.push(
      `checks have no network (loopback only) and the output shows a connection or DNS failure; if this check needs the network, set \`${setting}\``,
    );
  }
  return hints.length > 0 ? hints.join("; ") : undefined;
}

/** `name` as a whole word (so `DATABASE_URL` is not found in `MY_DATABASE_URL_2`). */
function mentions(output: string, name: string): boolean {
  let at = output.indexOf(name);
  while (at >= 0) {
    const before = at === 0 ? "" : output[at - 1]!;
    const after = output[at + name.length] ?? "";
    if (!/[A-Za-z0-9_]/.test(before) && !/[A-Za-z0-9_]/.test(after)) return true;
    at = output.indexOf(name, at + 1);
  }
  return false;
}
