/**
 * Issue 31 through the CLI as a separate process, sandboxed: the ten
 * variables a workflow hands its test steps reach no check and appear on no
 * surface (JSON report, markdown, report file, write-back into the contract);
 * a granted one reaches its check, and whatever form the check prints it in
 * is published nowhere. Control: granting all ten, a check sees them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { oracleContract, oraclePath, scratch } from "./helpers/action-harness.js";
import { gateProcess } from "./helpers/sandbox.js";
import { TEN_SECRETS } from "./helpers/secrets.js";
import { writeTree } from "./helpers/tmp.js";

const GRANTED = "DATABASE_URL";
const VALUE = TEN_SECRETS[GRANTED]!;
const OTHERS = Object.keys(TEN_SECRETS).filter((n) => n !== GRANTED);
const sha = createHash("sha256").update(VALUE).digest("hex");

const CRITERIA = [
  {
    title: "others-absent",
    check: `n=0; for v in ${OTHERS.join(" ")}; do [ -n "$(printenv $v)" ] && n=$((n+1)); done; echo "present=$n"; [ $n -gt 0 ] && echo PWNED`,
    expect: "PWNED",
  },
  {
    title: "granted-reaches",
    check: `printf %s "$${GRANTED}" | sha256sum | grep -q ${sha} && echo GOT`,
    expect: "GOT",
  },
  {
    // Raw, split by fold, URL-encoded by hand, base64'd: then fail, so the output is published.
    title: "print-forms",
    check: `s="$${GRANTED}"; echo "$s"; printf '%s\\n' "$s" | fold -w 7; o=""; for ((i=0;i<\${#s};i++)); do c=\${s:i:1}; case $c in [a-zA-Z0-9.~_-]) o+=$c;; *) o+=$(printf '%%%02X' "'$c");; esac; done; echo "url=$o"; printf %s "$s" | base64 -w 0; echo; for v in ${OTHERS.join(" ")}; do printenv $v; done; exit 1`,
    expect: "NEVER",
  },
  {
    title: "withheld-hint",
    check: `[ -n "$REDIS_URL" ] || { echo "REDIS_URL is not set"; exit 1; }; echo OK`,
    expect: "OK",
  },
  {
    title: "network-hint",
    check: `echo "getaddrinfo EAI_AGAIN registry.npmjs.org"; exit 1`,
    expect: "OK",
  },
];

type Report = {
  sandbox?: {
    mechanism: string;
    view?: { network: string };
    checkEnv?: { granted: string[]; withheld: string[] };
  };
  contracts: { criteria: { title: string; status: string; reason: string }[] }[];
};

function world() {
  const root = scratch("cg-env-repo-");
  writeTree(root, { [oraclePath("env")]: oracleContract("env", CRITERIA) });
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: scratch("cg-env-home-"),
    LANG: "C.UTF-8",
    REDIS_URL: "redis://:redis-password-1@cache:6379",
    ...TEN_SECRETS,
  };
  return { root, env };
}

async function gate(w: ReturnType<typeof world>, args: string[]) {
  const run = await gateProcess(
    ["run", "--root", w.root, "--max-parallel", "2", ...args],
    w.env,
    w.root,
  );
  return run;
}

const statusOf = (report: Report) =>
  Object.fromEntries(report.contracts[0]!.criteria.map((k) => [k.title, k]));

/** Every form of every secret a surface could carry, as the attack printed them. */
function leaks(text: string): string[] {
  const flat = text.replace(/[\r\n]|\\[nr]/g, "").replace(/\\(.)/g, "$1");
  const found: string[] = [];
  for (const [name, value] of Object.entries({ ...TEN_SECRETS, REDIS_URL: "redis-password-1" })) {
    const forms = [value, encodeURIComponent(value), Buffer.from(value).toString("base64")];
    if (forms.some((f) => flat.includes(f))) found.push(name);
  }
  return found;
}

describe("check-env: the job's variables by grant, and nothing published carries one", () => {
  let defended: Awaited<ReturnType<typeof gate>> & {
    report: Report;
    file: string;
    contract: string;
  };
  let markdown: Awaited<ReturnType<typeof gate>>;
  let control: Awaited<ReturnType<typeof gate>> & { report: Report };

  beforeAll(async () => {
    const w = world();
    const reportFile = join(scratch("cg-env-out-"), "report.json");
    const run = await gate(w, ["--json", "--check-env", GRANTED, "--report-file", reportFile]);
    defended = {
      ...run,
      report: JSON.parse(run.stdout) as Report,
      file: readFileSync(reportFile, "utf8"),
      contract: readFileSync(join(w.root, oraclePath("env")), "utf8"),
    };
    markdown = await gate(world(), ["--markdown", "--no-write", "--check-env", GRANTED]);
    // Control: every one of the ten granted, and the network too.
    const all = await gate(world(), [
      "--json",
      "--no-write",
      "--check-network",
      "host",
      "--check-env",
      Object.keys(TEN_SECRETS).join(","),
    ]);
    control = { ...all, report: JSON.parse(all.stdout) as Report };
  }, 180_000);

  it("runs sandboxed", () => {
    expect(defended.report.sandbox?.mechanism).toMatch(/^namespaces/);
    expect(defended.report.sandbox?.view?.network).toBe("none");
  });

  it("withholds the other nine from checks; granting them is what hands them over (control)", () => {
    expect(statusOf(defended.report)["others-absent"]?.status).toBe("unmet");
    expect(statusOf(control.report)["others-absent"]?.status).toBe("met");
  });

  it("hands a granted variable to its check, and names it (never its value) in the report", () => {
    expect(statusOf(defended.report)["granted-reaches"]?.status).toBe("met");
    expect(defended.report.sandbox?.checkEnv?.granted).toEqual([GRANTED]);
    for (const name of [...OTHERS, "REDIS_URL"])
      expect(defended.report.sandbox?.checkEnv?.withheld).toContain(name);
  });

  it("publishes no value in any form: JSON report, report file, markdown, write-back, stderr", () => {
    // The check did print them (its criterion failed with output) …
    expect(statusOf(defended.report)["print-forms"]?.status).toBe("unmet");
    expect(defended.stdout).toContain("***");
    // … and no surface carries one.
    expect(leaks(defended.stdout)).toEqual([]);
    expect(leaks(defended.file)).toEqual([]);
    expect(leaks(defended.contract)).toEqual([]);
    expect(leaks(defended.stderr)).toEqual([]);
    expect(leaks(markdown.stdout)).toEqual([]);
    expect(markdown.stdout).toContain("Withheld from checks:");
    // Inline markdown escapes the underscore; it renders as the name.
    expect(markdown.stdout).toContain("granted by check-env, DATABASE\\_URL");
  });

  it("says how to grant a withheld variable the failing output names, in the CLI's spelling", () => {
    expect(statusOf(defended.report)["withheld-hint"]?.reason).toContain(
      "`REDIS_URL` is not passed to checks; grant it with `--check-env REDIS_URL`",
    );
  });

  it("names the network setting on a DNS failure with the network off, not under host", () => {
    expect(statusOf(defended.report)["network-hint"]?.reason).toContain("`--check-network host`");
    expect(statusOf(control.report)["network-hint"]?.reason).not.toContain("--check-network");
  });
});
