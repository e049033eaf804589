import type { Contract, KiroHeader, Problem } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { kiroCriteria } from "./link.js";
import { headingLevel, readKiroDoc } from "./read.js";
import { readRequirements } from "./requirements.js";

export {
  type KiroFiles,
  kiroCompanions,
  kiroCriteria,
  kiroDir,
  kiroSpecOf,
  linkKiroFiles,
  markedComplete,
  members,
  requiredTasks,
} from "./link.js";

/**
 * Parse a Kiro spec's `requirements.md` (`.kiro/specs/<feature>/`). Pure and
 * total. Its `design.md` and `tasks.md` are read by the loader
 * (`linkKiroFiles`); named on their own they are the same spec, so
 * discovery reads them through their `requirements.md`.
 */
export function parseKiroSpec(path: string, bytes: Uint8Array): Contract {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name !== "requirements.md") {
    return contract(
      path,
      [],
      [
        problem(
          "foreign-file",
          { path, line: 1, column: 1 },
          `${path} is part of a Kiro spec, which the gate reads through the requirements.md beside it`,
          { hint: "name the spec's requirements.md (or its directory) instead" },
        ),
      ],
    );
  }
  const read = readKiroDoc(path, bytes);
  if (!("doc" in read)) return contract(path, [], [read]);
  const requirements = readRequirements(read);
  if (requirements.length === 0) {
    const { doc } = read;
    let first = 0;
    while (first < doc.lines.length && (doc.hidden[first] || doc.visible[first]!.trim() === ""))
      first++;
    const heading = doc.visible[first] ?? "";
    const looks = headingLevel(heading) === 1 && /requirement|要件/i.test(heading);
    read.problems.push(
      looks
        ? problem(
            "no-criteria",
            { path, line: first + 1, column: 1 },
            "the requirements document defines no `### Requirement N` with acceptance criteria: there is nothing to gate",
            {
              hint: "write each requirement as `### Requirement 1: <title>` with `#### Acceptance Criteria` and numbered EARS lines",
            },
          )
        : problem(
            "foreign-file",
            { path, line: 1, column: 1 },
            `${path} is read as a Kiro requirements document (its place says so), but it has no \`### Requirement N\` heading${heading.trim() ? ` and its first line is ${JSON.stringify(heading.trim().slice(0, 60))}` : ""}`,
            {
              hint: "start it with `# Requirements Document` and `### Requirement 1: <title>` sections as Kiro writes them, or leave it out of the globs",
            },
          ),
    );
  }
  return contract(path, requirements, read.problems.list());
}

function contract(
  path: string,
  requirements: KiroHeader["requirements"],
  problems: Problem[],
): Contract {
  const header: KiroHeader = { kind: "kiro-spec", requirements };
  // The loader links design.md and tasks.md and computes the criteria again.
  const criteria = kiroCriteria(header);
  return { kind: "kiro-spec", path, header, criteria, problems: sortProblems(problems) };
}
