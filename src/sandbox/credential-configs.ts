import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Configuration files tools read from their installation prefix or /etc that
 * can carry a credential (docs/security.md, "Config files in the view"). The
 * view shows the system directories and toolchains as they are, so a
 * registry token written as npm's *global* config under the prefix
 * setup-node installs to would be read by every check. Each is shown
 * `hidden` (an empty file) or, for git (whose identity and settings checks
 * need), `sanitized` (credentials, extraheaders and includes removed).
 */
export interface CredentialConfigs {
  hidden: string[];
  sanitized: string[];
}

/** Fixed places, as the tools document them. */
const SYSTEM_CONFIGS = [
  "/etc/npmrc",
  "/usr/etc/npmrc",
  "/usr/local/etc/npmrc",
  "/etc/pip.conf",
  "/etc/xdg/pip/pip.conf",
  "/etc/pypirc",
  "/etc/netrc",
  "/etc/.netrc",
  "/etc/maven/settings.xml",
  "/usr/share/maven/conf/settings.xml",
  "/etc/gradle/gradle.properties",
  "/etc/docker/config.json",
  "/usr/local/cargo/credentials",
  "/usr/local/cargo/credentials.toml",
];

/** Files under a toolchain's own directory (named by a variable) that hold credentials. */
const UNDER: readonly { vars: readonly string[]; files: readonly string[] }[] = [
  { vars: ["CARGO_HOME"], files: ["credentials", "credentials.toml"] },
  { vars: ["MAVEN_HOME", "M2_HOME"], files: ["conf/settings.xml"] },
  { vars: ["GRADLE_HOME", "GRADLE_USER_HOME"], files: ["gradle.properties"] },
  { vars: ["DOCKER_CONFIG"], files: ["config.json"] },
  { vars: ["VIRTUAL_ENV", "CONDA_PREFIX"], files: ["pip.conf"] },
];

/**
 * Every such file that exists here: the fixed places, the toolchain
 * variables' directories, npm's global config beside every `npm` on PATH
 * (`<prefix>/etc/npmrc`) and in the tool cache (`node/<version>/<arch>/etc/npmrc`).
 */
export function credentialConfigs(
  env: NodeJS.ProcessEnv,
  exists: (p: string) => boolean = existsSync,
  list: (dir: string) => string[] = listDir,
): CredentialConfigs {
  const hidden = new Set<string>();
  const add = (p: string) => {
    if (exists(p)) hidden.add(p);
  };
  for (const p of SYSTEM_CONFIGS) add(p);
  for (const u of UNDER)
    for (const v of u.vars) {
      const dir = env[v];
      if (dir?.startsWith("/")) for (const f of u.files) add(join(dir, f));
    }
  for (const v of ["NPM_CONFIG_GLOBALCONFIG", "npm_config_globalconfig", "PIP_CONFIG_FILE"]) {
    const file = env[v];
    if (file?.startsWith("/")) add(file);
  }
  for (const entry of (env.PATH ?? "").split(":")) {
    if (entry.startsWith("/") && exists(join(entry, "npm"))) add(join(dirname(entry), "etc/npmrc"));
  }
  for (const v of ["RUNNER_TOOL_CACHE", "AGENT_TOOLSDIRECTORY"]) {
    const cache = env[v];
    if (!cache?.startsWith("/")) continue;
    for (const version of list(join(cache, "node")))
      for (const arch of list(join(cache, "node", version)))
        add(join(cache, "node", version, arch, "etc/npmrc"));
  }
  return { hidden: [...hidden], sanitized: exists("/etc/gitconfig") ? ["/etc/gitconfig"] : [] };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
