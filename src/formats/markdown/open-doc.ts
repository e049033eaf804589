import { problem } from "../../model/problems.js";
import { type Doc, h2Sections, locate } from "./lines.js";
import { CappedProblems } from "./problem-sink.js";
import { type Rendered, renderLines } from "./rendered.js";

/** A decoded markdown file read as GitHub renders it, with the problems reading found so far. */
export interface OpenDoc {
  doc: Doc;
  rendered: Rendered;
  problems: CappedProblems;
}

/**
 * The one way every markdown kind (contracts, gate ledgers, specs) starts
 * reading a file: render it, split its `##` sections, and say at once when a
 * fence is never closed, since that hides the rest of the file.
 */
export function openDoc(path: string, lines: readonly string[]): OpenDoc {
  const rendered = renderLines(lines);
  const shown = {
    path,
    lines,
    hidden: rendered.hidden,
    visible: rendered.visible,
    partlyHidden: rendered.partlyHidden,
  };
  const doc: Doc = { ...shown, sections: h2Sections(shown) };
  const problems = new CappedProblems();
  const unclosed = rendered.unclosedFenceAt;
  if (unclosed !== undefined) {
    problems.push(
      problem(
        "unclosed-fence",
        locate(doc, unclosed),
        `the code fence opened on line ${unclosed + 1} is never closed, which hides the rest of the file`,
        { hint: "close it with a line of the same fence characters, at least as many" },
      ),
    );
  }
  return { doc, rendered, problems };
}
