import type { Contract, OpenspecHeader, Problem } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { openspecPlace } from "../kinds/openspec.js";
import { atxText } from "../markdown/lines.js";
import { parseMainSpec } from "./main-spec.js";
import { readOpenspecDoc, shown } from "./read.js";

export { type ChangeFiles, linkOpenspecChange } from "./link.js";

const HEADING = /^#{1,6}[ \t]/;

/**
 * An OpenSpec change, by its `proposal.md`: the proposal alone is read here
 * (OpenSpec's archive warns when it has no `Why` or `What Changes`); the
 * folder's tasks, deltas and the main specs they change are read by the
 * loader and linked (`linkOpenspecChange`). Pure and total.
 */
export function parseOpenspecChange(path: string, bytes: Uint8Array): Contract {
  const place = openspecPlace(path);
  const id = place.kind === "change" ? place.id : "";
  const header: OpenspecHeader = {
    kind: "openspec-change",
    change: { id, deltas: [], files: [path] },
  };
  const read = readOpenspecDoc(path, bytes);
  if (!("doc" in read)) return contract("openspec-change", path, header, [read]);
  const { doc } = read;
  const titles = new Set<string>();
  for (let i = 0; i < doc.lines.length; i++) {
    const line = shown(doc, i);
    if (line !== undefined && HEADING.test(line)) titles.add(atxText(line).toLowerCase());
  }
  for (const section of ["Why", "What Changes"]) {
    if (titles.has(section.toLowerCase())) continue;
    read.problems.push(
      problem(
        "openspec-proposal",
        { path, line: 1, column: 1 },
        `the proposal has no "## ${section}" section (OpenSpec's archive warns)`,
        {
          hint:
            section === "Why"
              ? "say why under `## Why` (the problem or opportunity, 50–1000 characters)"
              : "list what changes under `## What Changes` (bullets; mark breaking ones **BREAKING**)",
        },
      ),
    );
  }
  return contract("openspec-change", path, header, read.problems.list());
}

/** A main spec, `openspec/specs/<capability>/spec.md`: its structure. Pure and total. */
export function parseOpenspecSpec(path: string, bytes: Uint8Array): Contract {
  const place = openspecPlace(path);
  const capability = place.kind === "main-spec" ? place.capability : "";
  const { spec, problems } = parseMainSpec(path, capability, bytes);
  return contract("openspec-spec", path, { kind: "openspec-spec", spec }, problems);
}

function contract(
  kind: Contract["kind"],
  path: string,
  header: OpenspecHeader,
  problems: Problem[],
): Contract {
  return { kind, path, header, criteria: [], problems: sortProblems(problems) };
}
