import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECK_ENV_TABLE, checkEnv, envEntryFor, parseEnvGrant } from "../src/process/env.js";
import { envHint } from "../src/process/env-hints.js";
import { type ProcessOptions, runProcess } from "../src/process/run-process.js";
import type { SandboxView } from "../src/sandbox/index.js";
import { viewContains } from "../src/sandbox/view-contains.js";
import { TEN_SECRETS } from "./helpers/secrets.js";
import { tempDir } from "./helpers/tmp.js";

const JOB = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/runner",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  CI: "true",
  GITHUB_ACTIONS: "true",
  GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
  GITHUB_REPOSITORY: "o/r",
  RUNNER_OS: "Linux",
  JAVA_HOME: "/usr/lib/jvm/temurin-17",
  GITHUB_TOKEN: "ghs_token",
  INPUT_GITHUB_TOKEN: "ghs_token",
  ACTIONS_RUNTIME_TOKEN: "rt",
  GITHUB_ENV: "/runner/_temp/env",
  ...TEN_SECRETS,
};

describe("checkEnv: the environment is built, not filtered", () => {
  it("passes the table's variables and withholds every other one, the ten of issue 31 among them", () => {
    const built = checkEnv(JOB);
    expect(Object.keys(built.env).sort()).toEqual([
      "CI",
      "GITHUB_ACTIONS",
      "GITHUB_REPOSITORY",
      "GITHUB_SHA",
      "HOME",
      "JAVA_HOME",
      "LANG",
      "LC_ALL",
      "PATH",
      "RUNNER_OS",
    ]);
    for (const name of Object.keys(TEN_SECRETS)) expect(built.withheld).toContain(name);
    expect(built.withheld).toContain("GITHUB_TOKEN");
    expect(built.withheld).toContain("GITHUB_ENV");
    expect(built.granted).toEqual([]);
  });

  it("control: a denylist by secret-looking names (the old rule) lets most of the ten through", () => {
    const denied = /TOKEN|SECRET|PASSWORD|PRIVATE_KEY/i;
    const through = Object.keys(TEN_SECRETS).filter((n) => !denied.test(n));
    expect(through.length).toBeGreaterThanOrEqual(9);
  });

  it("a granted name reaches checks with the job's value, and is named (never its value)", () => {
    const built = checkEnv(JOB, { grant: ["DATABASE_URL", "NOT_SET_ANYWHERE"] });
    expect(built.env.DATABASE_URL).toBe(TEN_SECRETS.DATABASE_URL);
    expect(built.granted).toEqual(["DATABASE_URL"]);
    expect(built.grantedUnset).toEqual(["NOT_SET_ANYWHERE"]);
    expect(built.withheld).not.toContain("DATABASE_URL");
    expect(JSON.stringify({ g: built.granted, w: built.withheld })).not.toContain("hunter2");
  });

  it("keeps only PATH entries and toolchain directories inside the view", () => {
    const visible = (p: string) => p.startsWith("/usr") || p === "/home/runner";
    const built = checkEnv(
      {
        PATH: "/snap/bin:/usr/local/bin:relative/bin::/home/runner/.secret/bin:/usr/bin",
        HOME: "/home/runner",
        JAVA_HOME: "/opt/elsewhere/jdk",
        GOROOT: "not-a-path-but-maybe-a-secret",
      },
      { visible },
    );
    expect(built.env.PATH).toBe("/usr/local/bin:/usr/bin");
    expect(built.env.HOME).toBe("/home/runner");
    expect(built.env.JAVA_HOME).toBeUndefined();
    expect(built.env.GOROOT).toBeUndefined();
    expect(built.withheld).toEqual(["GOROOT", "JAVA_HOME"]);
  });

  it("always gives a PATH: the system's when nothing of the job's is in the view", () => {
    expect(checkEnv({ PATH: "/nowhere/bin" }, { visible: () => false }).env.PATH).toBe(
      "/usr/local/bin:/usr/bin:/bin",
    );
  });

  it("matches names case-insensitively and by prefix where the table says so", () => {
    expect(envEntryFor("LC_MESSAGES")?.name).toBe("LC_");
    expect(envEntryFor("JAVA_HOME_17_X64")?.name).toBe("JAVA_HOME_");
    expect(envEntryFor("path")?.name).toBe("PATH");
    expect(envEntryFor("DATABASE_URL")).toBeUndefined();
  });

  it("holds no name a workflow would put a credential in", () => {
    // The GitHub API's own URLs are the only URLs: fixed by GitHub, never a webhook or a DSN.
    const urls = ["GITHUB_SERVER_URL", "GITHUB_API_URL", "GITHUB_GRAPHQL_URL"];
    for (const e of CHECK_ENV_TABLE.filter((e) => !urls.includes(e.name)))
      expect(e.name).not.toMatch(/TOKEN|SECRET|KEY|PASS|AUTH|URL$/);
  });

  it("is what a child process sees (attack: the ten; control: the job's own environment)", async () => {
    const job = { ...process.env, ...TEN_SECRETS } as Record<string, string>;
    const opts = (env: NodeJS.ProcessEnv): ProcessOptions => ({
      file: process.execPath,
      args: [join(resolve(import.meta.dirname, "fixtures/process"), "print-env.mjs")],
      cwd: tempDir(),
      env,
      timeoutMs: 20_000,
    });
    const control = (await runProcess(opts(job))).stdout.split("\n");
    for (const name of Object.keys(TEN_SECRETS)) expect(control).toContain(name);
    const seen = (await runProcess(opts(checkEnv(job, { grant: ["GH_PAT"] }).env))).stdout.split(
      "\n",
    );
    expect(seen).toContain("PATH");
    expect(seen).toContain("GH_PAT");
    for (const name of Object.keys(TEN_SECRETS).filter((n) => n !== "GH_PAT"))
      expect(seen).not.toContain(name);
  });
});

describe("parseEnvGrant", () => {
  it("takes names by comma, space or line", () => {
    expect(parseEnvGrant(["DATABASE_URL, REDIS_URL\nAPI_KEY", "API_KEY"])).toEqual({
      ok: true,
      names: ["DATABASE_URL", "REDIS_URL", "API_KEY"],
    });
  });

  it("refuses values, bad names and the runner's own machinery, saying why", () => {
    const out = parseEnvGrant(["A=b", "1X", "GITHUB_ENV", "ACTIONS_RUNTIME_TOKEN"]);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errors).toEqual([
      "'A=b' gives a value: name the variable only (its value comes from the job's environment)",
      "'1X' is not a variable name (letters, digits and _, not starting with a digit)",
      "'GITHUB_ENV' cannot be granted: a file command: a check could set the job's environment",
      "'ACTIONS_RUNTIME_TOKEN' cannot be granted: the runner's runtime, cache and OIDC credentials",
    ]);
  });
});

describe("envHint", () => {
  const ctx = { withheld: ["DATABASE_URL", "REDIS_URL"], network: "none" as const };

  it("names a withheld variable the output mentions, in the action's and the CLI's spelling", () => {
    const out = "Error: DATABASE_URL is not set\n";
    expect(envHint(out, { ...ctx, network: "host", surface: "action" })).toBe(
      "`DATABASE_URL` is not passed to checks; grant it with `check-env: DATABASE_URL`",
    );
    expect(envHint(out, { ...ctx, network: "host", surface: "cli" })).toBe(
      "`DATABASE_URL` is not passed to checks; grant it with `--check-env DATABASE_URL`",
    );
  });

  it("matches whole names only, and says nothing when the output names none", () => {
    expect(
      envHint("MY_DATABASE_URL_2 missing", { ...ctx, network: "host", surface: "cli" }),
    ).toBeUndefined();
    expect(envHint("all good", { ...ctx, surface: "cli" })).toBeUndefined();
  });

  it("names the network setting when the output shows a DNS or connection failure with the network off", () => {
    const out = "curl: (6) Could not resolve host: example.com";
    expect(envHint(out, { ...ctx, surface: "action" })).toContain("`check-network: host`");
    expect(
      envHint("getaddrinfo EAI_AGAIN registry.npmjs.org", { ...ctx, surface: "cli" }),
    ).toContain("`--check-network host`");
    // Control: with the network granted, a DNS failure is the check's own business.
    expect(envHint(out, { ...ctx, network: "host", surface: "action" })).toBeUndefined();
  });
});

describe("viewContains", () => {
  const view: SandboxView = {
    tree: "/work/repo",
    system: ["/usr", "/bin", "/opt"],
    toolchains: ["~/.cargo/bin", "~/go"],
    extraReads: ["/data/set"],
    gitDirs: 1,
    hiddenCredentials: 0,
    network: "none",
  };
  const env = { HOME: "/home/runner", RUNNER_TOOL_CACHE: "/srv/toolcache" };

  it("holds the tree, the system, the private home's toolchains, the tool cache and sandbox-read", () => {
    for (const p of [
      "/work/repo/node_modules/.bin",
      "/usr/local/bin",
      "/opt/hostedtoolcache/node/20/x64/bin",
      "/home/runner",
      "/home/runner/.cargo/bin",
      "/home/runner/go/bin/",
      "/srv/toolcache/go/bin",
      "/data/set/bin",
    ])
      expect(viewContains(view, env, p), p).toBe(true);
  });

  it("holds nothing else", () => {
    for (const p of [
      "/snap/bin",
      "/home/runner/.local/bin",
      "/home/other/bin",
      "/usrx/bin",
      "/work/repo-other",
      "/root/bin",
    ])
      expect(viewContains(view, env, p), p).toBe(false);
  });
});
