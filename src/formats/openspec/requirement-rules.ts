import type { Location, OpenspecRequirement } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import { normativeCount } from "./blocks.js";
import { at, type OpenspecDoc } from "./read.js";

/**
 * What every stated requirement needs (`Validator`'s ADDED/MODIFIED rules and
 * the main spec's): text under its heading, SHALL or MUST in that text, and
 * at least one scenario. `label` is `ADDED`, `MODIFIED` or `Requirement`.
 * The keyword is required in the text, not the heading: OpenSpec reads only
 * the text, and so does the gate. Missing SHALL/MUST is an error here, where
 * OpenSpec ≥ 1.8 warns: the gate blocks a requirement that obliges nothing.
 */
export function requirementRules(
  read: OpenspecDoc,
  label: string,
  r: OpenspecRequirement,
  lookalike: number | undefined,
): void {
  const say = (
    code: "openspec-requirement-text" | "openspec-scenario",
    message: string,
    hint: string,
  ) => {
    if (!read.problems.full(code, r.location))
      read.problems.push(problem(code, r.location, message, { hint }));
  };
  const headerKeyword = normativeCount(r.name) > 0;
  if (r.text === "") {
    say(
      "openspec-requirement-text",
      headerKeyword
        ? `${label} "${r.name}" has SHALL or MUST only in its heading and no text under it`
        : `${label} "${r.name}" has no text under its heading`,
      "state the requirement on the line under its heading: `The system SHALL …`",
    );
  } else if (r.normative === 0) {
    say(
      "openspec-requirement-text",
      `${label} "${r.name}" has no SHALL or MUST in its text${headerKeyword ? " (only in its heading)" : ""}: it obliges nothing a test can hold it to`,
      "write the obligation with SHALL or MUST in upper case (the rest may be in any language): `The system SHALL …`",
    );
  }
  if (r.scenarios.length === 0) {
    const near: Location | undefined =
      lookalike === undefined ? undefined : at(read.doc, lookalike);
    say(
      "openspec-scenario",
      near
        ? `${label} "${r.name}" has no \`#### Scenario:\` heading; line ${near.line} writes a scenario in a form OpenSpec does not read`
        : `${label} "${r.name}" has no \`#### Scenario:\` under it`,
      "add `#### Scenario: <name>` with `- **WHEN** …` and `- **THEN** …` lines under the requirement",
    );
  }
}
