import { availableParallelism } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { DEFAULT_CONTRACT_GLOBS } from "../formats/kinds/index.js";
import { parseEnvGrant } from "../process/env.js";
import { DEFAULT_TEST_TIMEOUT_SECONDS, type ProofOptions } from "../proof/prover.js";
import {
  DEFAULT_MUTANTS_PER_REQUIREMENT,
  DEFAULT_MUTATION_TIMEOUT_SECONDS,
} from "../proof/run/mutation.js";
import { DEFAULT_CHECK_NAME } from "../report/github-text.js";
import {
  CHECK_NETWORKS,
  type CheckNetwork,
  DEFAULT_CHECK_MEMORY_MB,
  DEFAULT_CHECK_NETWORK,
  SANDBOX_MODES,
  type SandboxMode,
} from "../sandbox/index.js";
import { splitPathList } from "../sandbox/view.js";
import { parseShard, type ShardSpec } from "../shard/assign.js";
import { prNumberAdvice } from "./workflow-run.js";

export const UNTRUSTED_COMMANDS = ["sandbox", "block", "skip", "run"] as const;
export type UntrustedCommands = (typeof UNTRUSTED_COMMANDS)[number];

/** Every input of action.yml, read and validated once before any work. */
export interface ActionSettings {
  /** Token for the API; masked in logs, never passed to executed commands. */
  githubToken: string;
  /** Globs of contract files, relative to the working directory. */
  contracts: string[];
  /** `changed`: contracts the PR touches; `all`: every contract. Events without a PR use `all`. */
  scope: "changed" | "all";
  /** For `workflow_dispatch` and `workflow_run` (the fork setup's stage 2): the pull request to gate. */
  prNumber: number | undefined;
  /** Name of the check run: what branch protection requires. */
  checkName: string;
  /** The sticky PR comment: always, only while something blocks, or never. */
  comment: "always" | "on-failure" | "never";
  /** Fail the step when anything blocks, so the job's own status gates too. */
  failOnBlocking: boolean;
  /**
   * What happens to command checks and oracles when the code is untrusted:
   * `sandbox` runs them only inside an active sandbox boundary, else blocks.
   */
  untrustedCommands: UntrustedCommands;
  /** Manual (oracle-free) criteria block. */
  requireOracles: boolean;
  /** Concurrent check processes. */
  maxParallel: number;
  /** Oracle timeout, seconds. */
  timeoutSeconds: number;
  /** Absolute repository root the contracts live in. */
  workingDirectory: string;
  /** Where commands run: the namespace sandbox when available (`auto`), always (`required`), never (`off`). */
  sandbox: SandboxMode;
  /** Memory cap of each sandboxed check, MiB. */
  checkMemoryMb: number;
  /** Extra paths checks may read (read-only): absolute or `~/…`; existence is checked when the sandbox opens. */
  sandboxRead: string[];
  /** `none` (default): each check gets loopback only; `host`: the runner's network. */
  checkNetwork: CheckNetwork;
  /** `check-env`: names of the job's variables checks get besides the built environment (docs/security.md). */
  checkEnv: string[];
  /** The conclusion when the `contracts` globs match no file at all (always said loudly). */
  ifNoContracts: "neutral" | "failure";
  /** The requirement proof's inputs (docs/proof.md): `requirement-proof`, `test-tamper`, `test-command`, `test-files`, `test-timeout-seconds`. */
  proof: ProofOptions;
  /** One leg of a job matrix (`i/n`): run its share, post nothing, write its report (docs/sharding.md). */
  shard: ShardSpec | undefined;
  /** The merge job: the absolute directory holding the legs' reports, merged and posted as one run. */
  mergeReports: string | undefined;
}

/** Defaults, exactly as action.yml declares them (the runner fills these in; tests may not). */
export const INPUT_DEFAULTS = {
  contracts: DEFAULT_CONTRACT_GLOBS.join("\n"),
  scope: "changed",
  "check-name": DEFAULT_CHECK_NAME,
  comment: "always",
  "fail-on-blocking": "true",
  "untrusted-commands": "sandbox",
  "require-oracles": "false",
  "timeout-seconds": "120",
  sandbox: "auto",
  "check-memory-mb": String(DEFAULT_CHECK_MEMORY_MB),
  "sandbox-read": "",
  "check-network": DEFAULT_CHECK_NETWORK,
  "check-env": "",
  "if-no-contracts": "neutral",
  "requirement-proof": "on",
  "requirement-map": "optional",
  "test-tamper": "off",
  "test-command": "",
  "test-files": "",
  "test-timeout-seconds": String(DEFAULT_TEST_TIMEOUT_SECONDS),
  "mutants-per-requirement": String(DEFAULT_MUTANTS_PER_REQUIREMENT),
  "mutation-timeout-seconds": String(DEFAULT_MUTATION_TIMEOUT_SECONDS),
} as const;

const TRUE = ["true", "True", "TRUE"];
const FALSE = ["false", "False", "FALSE"];

/**
 * Parse every input; collect every bad value so one run reports them all.
 * `get` returns the raw input ("" when unset), as `core.getInput` does.
 */
export function parseInputs(
  get: (name: string) => string,
  env: NodeJS.ProcessEnv,
): { ok: true; settings: ActionSettings } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const raw = (name: string) => {
    const value = get(name).trim();
    return value === "" ? (INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS] ?? "") : value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T => {
    const value = raw(name);
    if ((allowed as readonly string[]).includes(value)) return value as T;
    errors.push(`Input '${name}' is '${value}'. Allowed values: ${allowed.join(", ")}.`);
    return allowed[0]!;
  };
  const bool = (name: string): boolean => {
    const value = raw(name);
    if (TRUE.includes(value)) return true;
    if (FALSE.includes(value)) return false;
    errors.push(`Input '${name}' is '${value}'. Allowed values: true, false.`);
    return false;
  };
  const positive = (name: string, fallback: number, max: number): number => {
    const value = raw(name);
    if (value === "") return fallback;
    if (/^[1-9]\d*$/.test(value) && Number(value) <= max) return Number(value);
    errors.push(`Input '${name}' is '${value}'. Expected a whole number from 1 to ${max}.`);
    return fallback;
  };

  const githubToken = get("github-token").trim();
  if (githubToken === "") {
    errors.push(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, shown to the user
      "Input 'github-token' is empty. Leave it unset to use ${{ github.token }}, or pass a token with checks: write.",
    );
  }
  const contracts = raw("contracts")
    .split(/[\n,]/)
    .map((g) => g.trim())
    .filter((g) => g !== "");
  if (contracts.length === 0) errors.push("Input 'contracts' lists no globs.");
  for (const g of contracts) {
    if (isAbsolute(g) || g.split("/").includes("..")) {
      errors.push(
        `Input 'contracts' glob '${g}' must be relative to the working directory, without '..'.`,
      );
    }
  }
  const prRaw = get("pr-number").trim().replace(/^#/, "");
  let prNumber: number | undefined;
  if (prRaw !== "") {
    if (/^[1-9]\d*$/.test(prRaw)) prNumber = Number(prRaw);
    else if (env.GITHUB_EVENT_NAME === "workflow_run") errors.push(prNumberAdvice(prRaw));
    else errors.push(`Input 'pr-number' is '${prRaw}'. Expected a pull request number such as 42.`);
  }
  const checkName = raw("check-name");
  if (checkName.length > 100)
    errors.push(`Input 'check-name' is ${checkName.length} characters; keep it under 100.`);
  const sandboxRead = splitPathList(get("sandbox-read"));
  for (const p of sandboxRead) {
    if (!p.startsWith("/") && p !== "~" && !p.startsWith("~/"))
      errors.push(`Input 'sandbox-read' path '${p}' is not absolute. Write it as /path or ~/path.`);
  }
  const grant = parseEnvGrant(splitPathList(get("check-env")));
  if (!grant.ok) for (const e of grant.errors) errors.push(`Input 'check-env': ${e}.`);
  const testFiles = raw("test-files")
    .split(/\n/)
    .map((g) => g.trim())
    .filter((g) => g !== "");
  for (const g of testFiles) {
    if (isAbsolute(g) || g.split("/").includes(".."))
      errors.push(
        `Input 'test-files' glob '${g}' must be relative to the working directory, without '..'.`,
      );
  }
  const testCommand = raw("test-command");
  const proofMode = oneOf("requirement-proof", ["on", "mutation", "fail-to-pass", "off"] as const);
  const proof: ProofOptions = {
    requirementProof: proofMode !== "off",
    proofMode: proofMode === "fail-to-pass" ? "fail-to-pass" : "mutation",
    mutantsPerRequirement: positive(
      "mutants-per-requirement",
      DEFAULT_MUTANTS_PER_REQUIREMENT,
      1000,
    ),
    mutationTimeoutSeconds: positive(
      "mutation-timeout-seconds",
      DEFAULT_MUTATION_TIMEOUT_SECONDS,
      6 * 3600,
    ),
    requirementMap: oneOf("requirement-map", ["optional", "required"] as const),
    surface: "action",
    testTamper: oneOf("test-tamper", ["off", "on"] as const) === "on",
    ...(testCommand !== "" && { testCommand }),
    testFiles,
    testTimeoutSeconds: positive("test-timeout-seconds", DEFAULT_TEST_TIMEOUT_SECONDS, 6 * 3600),
  };
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const wd = get("working-directory").trim();
  const shardRaw = get("shard").trim();
  let shard: ShardSpec | undefined;
  if (shardRaw !== "") {
    const parsed = parseShard(shardRaw);
    if (parsed.ok) shard = parsed.shard;
    else errors.push(`Input 'shard' ${parsed.error}.`);
  }
  const mergeRaw = get("merge-reports").trim();
  if (shardRaw !== "" && mergeRaw !== "")
    errors.push(
      "Inputs 'shard' and 'merge-reports' are exclusive: the matrix legs set 'shard', the one job after them 'merge-reports'.",
    );

  const settings: ActionSettings = {
    githubToken,
    contracts,
    scope: oneOf("scope", ["changed", "all"] as const),
    prNumber,
    checkName,
    comment: oneOf("comment", ["always", "on-failure", "never"] as const),
    failOnBlocking: bool("fail-on-blocking"),
    untrustedCommands: oneOf("untrusted-commands", UNTRUSTED_COMMANDS),
    requireOracles: bool("require-oracles"),
    maxParallel: positive("max-parallel", availableParallelism(), 256),
    timeoutSeconds: positive("timeout-seconds", 120, 6 * 3600),
    workingDirectory: wd === "" ? workspace : resolve(workspace, wd),
    sandbox: oneOf("sandbox", SANDBOX_MODES),
    checkMemoryMb: positive("check-memory-mb", DEFAULT_CHECK_MEMORY_MB, 1024 * 1024),
    sandboxRead,
    checkNetwork: oneOf("check-network", CHECK_NETWORKS),
    checkEnv: grant.ok ? grant.names : [],
    ifNoContracts: oneOf("if-no-contracts", ["neutral", "failure"] as const),
    proof,
    shard,
    mergeReports: mergeRaw === "" ? undefined : resolve(workspace, mergeRaw),
  };
  // Mutants run in the run's own lanes: one input, read (and reported) once.
  settings.proof = { ...proof, mutationLanes: settings.maxParallel };
  return errors.length ? { ok: false, errors } : { ok: true, settings };
}
