/**
 * The canonical layout is `.planning/phase-N-contract.json` beside
 * `.planning/phase-N-plan.md`; the N in the file name is what tools look up,
 * so it is what links a contract to its plan.
 */
const CONTRACT_NAME = /^phase-(\d+)-contract\.json$/;

/** The N of `phase-N-contract.json` as written (digits), or undefined for other names. */
export function phaseDigitsFromName(path: string): string | undefined {
  return CONTRACT_NAME.exec(baseName(path))?.[1];
}

/** The repo-relative `phase-N-plan.md` beside the contract. */
export function siblingPlanPath(path: string, phase: string): string {
  const slash = path.lastIndexOf("/");
  const dir = slash === -1 ? "" : path.slice(0, slash + 1);
  return `${dir}phase-${phase}-plan.md`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
