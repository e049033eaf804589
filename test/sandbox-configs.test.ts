/**
 * Credential-bearing configuration in the directories the view grants (issue
 * 31, item 5): npm's global npmrc under a toolchain prefix, pip's, Maven's,
 * Gradle's, Cargo's and Docker's, planted in a tool cache the view binds.
 * Control: `sandbox: off` reads every one; sandboxed, none.
 */
import { randomBytes } from "node:crypto";
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { credentialConfigs } from "../src/sandbox/credential-configs.js";
import { openSandbox, type SandboxOptions } from "../src/sandbox/index.js";
import { scratch } from "./helpers/action-harness.js";
import { bash, HOST_FROM_SOURCE } from "./helpers/sandbox.js";
import { writeTree } from "./helpers/tmp.js";

const TOKEN = `cgtoken${randomBytes(6).toString("hex")}`;

/** A tool cache holding a setup-node install and other toolchains, each with its credential file. */
function plantedCache() {
  const cache = scratch("cg-cfg-cache-");
  // As setup-node's tool cache is: open to all (a 0700 one is root's alone, not a root gate's check user's).
  chmodSync(cache, 0o755);
  const files = {
    "node/20.0.0/x64/etc/npmrc": `//registry.npmjs.org/:_authToken=${TOKEN}\n`,
    "node/20.0.0/x64/bin/npm": "#!/bin/sh\n",
    "cargo/credentials.toml": `[registry]\ntoken = "${TOKEN}"\n`,
    "maven/conf/settings.xml": `<settings><servers><server><password>${TOKEN}</password></server></servers></settings>\n`,
    "gradle/gradle.properties": `mavenPassword=${TOKEN}\n`,
    "docker/config.json": `{"auths":{"r":{"auth":"${TOKEN}"}}}\n`,
    "venv/pip.conf": `[global]\nindex-url = https://u:${TOKEN}@pypi.example/simple\n`,
  };
  writeTree(cache, files);
  chmodSync(join(cache, "node/20.0.0/x64/bin/npm"), 0o755);
  const env = {
    PATH: `${join(cache, "node/20.0.0/x64/bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: scratch("cg-cfg-home-"),
    RUNNER_TOOL_CACHE: cache,
    CARGO_HOME: join(cache, "cargo"),
    MAVEN_HOME: join(cache, "maven"),
    GRADLE_HOME: join(cache, "gradle"),
    DOCKER_CONFIG: join(cache, "docker"),
    VIRTUAL_ENV: join(cache, "venv"),
  };
  const paths = Object.keys(files)
    .filter((f) => !f.endsWith("/npm"))
    .map((f) => join(cache, f));
  return { cache, env, paths };
}

describe("credentialConfigs", () => {
  it("finds the fixed places, the toolchain variables' files, npm's prefix config and the tool cache's", () => {
    const present = new Set([
      "/etc/gitconfig",
      "/etc/pip.conf",
      "/opt/node/bin/npm",
      "/opt/node/etc/npmrc",
      "/tc/node/20.1.0/x64/etc/npmrc",
      "/cargo/credentials.toml",
    ]);
    const found = credentialConfigs(
      { PATH: "/usr/bin:/opt/node/bin", RUNNER_TOOL_CACHE: "/tc", CARGO_HOME: "/cargo" },
      (p) => present.has(p),
      (dir) => (dir === "/tc/node" ? ["20.1.0"] : dir === "/tc/node/20.1.0" ? ["x64"] : []),
    );
    expect(found.sanitized).toEqual(["/etc/gitconfig"]);
    expect(found.hidden.sort()).toEqual(
      [
        "/etc/pip.conf",
        "/opt/node/etc/npmrc",
        "/tc/node/20.1.0/x64/etc/npmrc",
        "/cargo/credentials.toml",
      ].sort(),
    );
  });
});

describe("credential-bearing configs in the granted directories", () => {
  it("are unreadable to a sandboxed check; sandbox: off reads them (control)", async () => {
    const { env, paths } = plantedCache();
    const root = scratch("cg-cfg-repo-");
    const options = (over: Partial<SandboxOptions>): SandboxOptions => ({
      mode: "required",
      root,
      env,
      hostCommand: HOST_FROM_SOURCE,
      memoryMb: 256,
      ...over,
    });
    const script = `for f in ${paths.join(" ")}; do if grep -qs ${TOKEN} "$f"; then echo "READ $f"; fi; done; echo done`;
    const off = await openSandbox(options({ mode: "off" }));
    const on = await openSandbox(options({}));
    try {
      const control = await off.run(bash(root, script));
      for (const p of paths) expect(control.stdout).toContain(`READ ${p}`);
      expect(on.info.mechanism).toMatch(/^namespaces/);
      const attacked = await on.run(bash(root, script));
      expect(attacked.stdout).toContain("done");
      expect(attacked.stdout).not.toContain("READ");
      // The toolchain itself is still there.
      expect(
        (
          await on.run(
            bash(root, `test -x ${env.RUNNER_TOOL_CACHE}/node/20.0.0/x64/bin/npm && echo npm`),
          )
        ).stdout,
      ).toContain("npm");
      expect(on.info.view?.hiddenCredentials).toBeGreaterThanOrEqual(paths.length);
    } finally {
      off.close();
      on.close();
    }
  }, 120_000);
});
