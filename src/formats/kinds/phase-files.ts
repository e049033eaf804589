/**
 * The canonical layout is `.planning/phase-<name>-contract.json` beside
 * `.planning/phase-<name>-plan.md`, where <name> is usually the phase number
 * (`phase-2-…`) but may be a word (`phase-invoicing-reliability-…`, which real
 * repositories use). The file name is what links a contract to its
 * companions, never the JSON's `phase`: the link must be known from paths
 * alone (PR selection and `--changed-since` decide before anything is
 * parsed), and the author of the JSON must not be able to point it at
 * another plan.
 */
const CONTRACT_NAME = /^phase-(.+)-contract\.json$/;
const NUMERIC = /^\d+$/;

/** The files that belong to one plan contract, all repo-relative, in its directory. */
export interface PhaseFiles {
  /** The <name> of `phase-<name>-contract.json`. */
  name: string;
  /** The prose plan whose hash the contract records. */
  plan: string;
  /** The verifier's citations for behavioral checks. */
  evidence: string;
  /** What `run` writes: the machine and the human record of a verdict. */
  verificationJson: string;
  verificationMarkdown: string;
}

/**
 * The companions of `phase-<name>-contract.json`, or undefined for a
 * contract of any other name (it has none). The one place that pairs files:
 * drift, `--changed-since`, PR selection, evidence and write-back all ask here.
 */
export function phaseFiles(contractPath: string): PhaseFiles | undefined {
  const slash = contractPath.lastIndexOf("/");
  const name = CONTRACT_NAME.exec(contractPath.slice(slash + 1))?.[1];
  if (name === undefined) return undefined;
  const stem = `${contractPath.slice(0, slash + 1)}phase-${name}`;
  return {
    name,
    plan: `${stem}-plan.md`,
    evidence: `${stem}-evidence.json`,
    verificationJson: `${stem}-verification.json`,
    verificationMarkdown: `${stem}-verification.md`,
  };
}

/**
 * The N of `phase-N-contract.json` as written (digits), or undefined when the
 * name is not a number: only a numeric name can be compared with `phase`.
 */
export function phaseDigitsFromName(path: string): string | undefined {
  const name = phaseFiles(path)?.name;
  return name !== undefined && NUMERIC.test(name) ? name : undefined;
}
