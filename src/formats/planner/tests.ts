import type { Criterion } from "../../model/contract.js";
import type { At, JsonSink } from "../json/sink.js";
import { pathReason } from "../memo.js";
import type { MilestoneParts } from "./read-plan.js";
import { warnPath } from "./read-plan.js";

const TITLE_LIMIT = 200;

/**
 * A milestone's `tests` as criteria. The seed's entries are free-form:
 * "file:tests/test_auth.py", "scenario:EDGE empty token returns 401",
 * "skip:no integration environment" (002, Milestone.tests). A `file:` entry
 * is a file-exists check at the PR head; everything else (scenario, skip,
 * prose, the objects real plans write) is a manual criterion showing its
 * text, for a reviewer to decide.
 */
export function testCriteria(sink: JsonSink, milestones: readonly MilestoneParts[]): Criterion[] {
  const out: Criterion[] = [];
  for (const m of milestones) {
    const group = m.id?.value ?? `milestone ${String(m.path[1])}`;
    m.tests.forEach((test, i) => {
      out.push(testCriterion(sink, test, `${group}.${i + 1}`, group));
    });
  }
  return out;
}

function testCriterion(sink: JsonSink, test: At<unknown>, id: string, group: string): Criterion {
  const location = sink.at(test.path);
  if (typeof test.value !== "string") {
    return { id, group, location, checks: [], title: shorten(JSON.stringify(test.value) ?? "") };
  }
  const text = test.value;
  if (!text.startsWith("file:")) return { id, group, location, checks: [], title: shorten(text) };
  // A pytest node id (`file:tests/a.py::test_x`) names the file before `::`.
  const path = text.slice("file:".length).split("::")[0]!.trim();
  const why = pathReason(path);
  if (why !== undefined) {
    warnPath(sink, { value: path, path: test.path }, "a file: test");
    return {
      id,
      group,
      location,
      title: shorten(text),
      checks: [],
      settled: {
        status: "manual",
        blocking: false,
        reason: `not checked: the path ${why}, so no file at the PR head can be confirmed; a reviewer decides`,
      },
    };
  }
  return {
    id,
    group,
    location,
    title: shorten(text),
    checks: [{ type: "file-exists", location, path }],
  };
}

function shorten(text: string): string {
  return text.length <= TITLE_LIMIT ? text : `${text.slice(0, TITLE_LIMIT - 1)}…`;
}
