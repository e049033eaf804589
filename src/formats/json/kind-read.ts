import {
  type Contract,
  type Criterion,
  emptyPlanHeader,
  type JsonKindHeader,
  type Problem,
} from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";
import { describeJsonTop, foreignFile } from "../foreign-file.js";
import { confirmShape, KIND_NAMES } from "../kinds/json.js";
import { decodeContractText } from "../text.js";
import { type JsonDocument, parseJsonDocument } from "./document.js";
import { type JsonObject, JsonSink } from "./sink.js";

export type JsonKind = JsonKindHeader["kind"];

/** The parsed document, or the finished contract when reading stopped early. */
type JsonKindRead =
  | { doc: JsonDocument; problems: Problem[] }
  | { doc: undefined; contract: Contract };

/**
 * The steps every planner and workphase file shares: input hygiene, strict
 * JSON through the plan-contract reader (same syntax and duplicate-key
 * problems, same positions), then the kind confirmed by the top level's shape.
 * A file with another kind's shape is an error naming both and is read no
 * further; a `*plan.json` with no known shape is skipped with a warning.
 */
function readJsonKind(kind: JsonKind, path: string, bytes: Uint8Array): JsonKindRead {
  const text = decodeContractText(path, bytes);
  if (typeof text !== "string") return { doc: undefined, contract: done(kind, path, [], [text]) };
  const { document: doc, problems } = parseJsonDocument(path, text);
  if (doc === undefined) return { doc: undefined, contract: done(kind, path, [], problems) };
  const shape = confirmShape(kind, doc.value);
  const top = doc.valueAt([]);
  if (shape.kind === "other") {
    const p = problem(
      "kind-mismatch",
      top,
      `${path} is named as ${KIND_NAMES[kind]} but has the shape of ${KIND_NAMES[shape.shape]}; it is read as neither`,
      { hint: "rename the file to match what it holds, or move it out of this glob" },
    );
    return { doc: undefined, contract: done(kind, path, [], [...problems, p]) };
  }
  if (shape.kind === "none" && kind === "planner-plan") {
    const p = problem(
      "not-a-planner-plan",
      top,
      `${path} has none of the planner's top-level keys (milestones, planning_context, ...); skipped`,
      {
        hint: "if this is a planner plan, its top-level keys are missing; otherwise rename or move it",
      },
    );
    return { doc: undefined, contract: done(kind, path, [], [...problems, p]) };
  }
  if (shape.kind === "none") {
    const p = foreignFile(path, KIND_NAMES[kind], describeJsonTop(doc.value));
    return { doc: undefined, contract: done(kind, path, [], [...problems, p]) };
  }
  return { doc, problems };
}

/** What a kind's reader makes of a file's top-level object. */
export interface JsonKindParts {
  criteria?: Criterion[];
  header?: Omit<JsonKindHeader, "kind">;
}

/**
 * Parse a file of one of the JSON kinds: `readJsonKind`, then `read` over the
 * top-level object with a sink for its problems (a top level that is not an
 * object is one `wrong-type`, and nothing more is read).
 */
export function parseJsonKind(
  kind: JsonKind,
  path: string,
  bytes: Uint8Array,
  read: (sink: JsonSink, root: JsonObject) => JsonKindParts,
): Contract {
  const got = readJsonKind(kind, path, bytes);
  if (got.doc === undefined) return got.contract;
  const sink = new JsonSink(got.doc);
  const root = sink.object(got.doc.value, []);
  const parts = root === undefined ? {} : read(sink, root);
  return done(kind, path, parts.criteria ?? [], [...got.problems, ...sink.problems], parts.header);
}

/** A contract of one of the JSON kinds, problems in the deterministic order. */
function done(
  kind: JsonKind,
  path: string,
  criteria: Criterion[],
  problems: readonly Problem[],
  header: Omit<JsonKindHeader, "kind"> = {},
): Contract {
  return {
    kind,
    path,
    header: { kind, ...header },
    criteria,
    problems: sortProblems(problems),
  };
}

/**
 * A `.json` file whose name says no kind is read as a phase contract, as
 * before the other JSON kinds existed. When its top level has another
 * kind's shape (a `plan.json` renamed `notes.json`, say) that is an error
 * naming both, not a pile of schema errors or a silent reading as a
 * contract. Undefined: read it as a phase contract.
 */
export function unnamedJsonMismatch(path: string, bytes: Uint8Array): Contract | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name.startsWith("phase-") && name.endsWith("-contract.json")) return undefined;
  const text = decodeContractText(path, bytes);
  if (typeof text !== "string") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // the plan-contract parser words the syntax error
  }
  const shape = confirmShape("plan-contract", value);
  if (shape.kind !== "other") return undefined;
  const p = problem(
    "kind-mismatch",
    { path, line: 1, column: 1 },
    `${path} is read as ${KIND_NAMES["plan-contract"]} (its name says no other kind) but has the shape of ${KIND_NAMES[shape.shape]}; it is read as neither`,
    { hint: "name it as its kind expects (docs/contracts.md, Kinds and file names)" },
  );
  return {
    kind: "plan-contract",
    path,
    header: emptyPlanHeader(path),
    criteria: [],
    problems: [p],
  };
}
