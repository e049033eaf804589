import type { Contract, Criterion } from "../../model/contract.js";
import { type JsonKindParts, parseJsonKind } from "../json/kind-read.js";
import type { At, JsonObject, JsonSink } from "../json/sink.js";
import { QR_PHASES, qrPhaseOfName } from "../kinds/json.js";
import { QR_ITEM_KEYS, QR_KEYS } from "./keys.js";

const PHASES: ReadonlySet<string> = new Set(QR_PHASES);
export const STATUSES: ReadonlySet<string> = new Set(["TODO", "PASS", "FAIL"]);
/** "QR iteration limit. Maximum 5 iterations per QR phase." (002, Invariants) */
export const MAX_ITERATION = 5;
const UNKNOWN = "a quality-review file";

/**
 * Parse a `qr-{phase}.json` (002). Each item is a criterion decided by its
 * recorded status, and the file itself is one more blocking criterion: "The
 * file's existence signals 'QR in progress'" and it "is deleted by route step
 * on PASS" (002, "QR file lifecycle"), so a file still present at the PR head
 * is a review that has not finished, whatever its items say. "All severity
 * levels block on all iterations" (002): a `severity` field changes nothing.
 */
export function parsePlannerQr(path: string, bytes: Uint8Array): Contract {
  return parseJsonKind("planner-qr", path, bytes, (sink, root) => readQr(sink, root, path));
}

function readQr(sink: JsonSink, root: JsonObject, path: string): JsonKindParts {
  sink.unknownKeys(root, QR_KEYS, [], "planner-unknown-key", UNKNOWN);

  const named = qrPhaseOfName(path.slice(path.lastIndexOf("/") + 1));
  const phase = sink.string(root, "phase", []);
  if (phase && !PHASES.has(phase.value)) {
    sink.report("qr-phase", phase.path, `phase "${phase.value}" is not a QR phase`, {
      hint: `one of ${QR_PHASES.join(", ")}`,
    });
  } else if (phase && named !== undefined && phase.value !== named) {
    sink.report(
      "qr-phase",
      phase.path,
      `phase "${phase.value}" differs from the file name's "${named}"`,
      {
        hint: `the planner computes the path as {state_dir}/qr-{phase}.json; rename the file or fix phase`,
      },
    );
  }
  const iteration = readIteration(sink, root);

  const criteria: Criterion[] = [];
  const group = phase?.value ?? named ?? "qr";
  const seen = new Map<string, At<string>>();
  for (const item of sink.objects(root, "items", [])) {
    const criterion = itemCriterion(sink, item, group, seen);
    if (criterion) criteria.push(criterion);
  }
  criteria.push({
    id: "in-progress",
    group,
    title: `quality review ${group} in progress (iteration ${iteration ?? "?"} of ${MAX_ITERATION})`,
    location: sink.at([]),
    checks: [],
    settled: {
      status: "unmet",
      blocking: true,
      pending: true,
      reason:
        "quality review in progress: the planner deletes this file once every item passes, so its presence means the review has not finished",
    },
  });
  return {
    criteria,
    header: { qrPhase: group, ...(iteration === undefined ? {} : { iteration }) },
  };
}

/** `iteration`: "1 = first attempt, 2+ = retry after failures"; absent reads as 1 (002, detect_fix_mode). */
function readIteration(sink: JsonSink, root: JsonObject): number | undefined {
  if (!Object.hasOwn(root, "iteration")) return 1;
  const value = root.iteration;
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MAX_ITERATION
  ) {
    return value;
  }
  const over = typeof value === "number" && value > MAX_ITERATION;
  sink.report(
    "qr-iteration",
    ["iteration"],
    over
      ? `iteration ${value} is over the limit: "Maximum 5 iterations per QR phase"`
      : `iteration must be an integer from 1 to ${MAX_ITERATION}, got ${JSON.stringify(value)}`,
    over ? { hint: "the review loop did not converge; a person decides how to proceed" } : {},
  );
  return undefined;
}

function itemCriterion(
  sink: JsonSink,
  item: At<JsonObject>,
  group: string,
  seen: Map<string, At<string>>,
): Criterion | undefined {
  const obj = item.value;
  sink.unknownKeys(obj, QR_ITEM_KEYS, item.path, "planner-unknown-key", UNKNOWN);
  const id = sink.string(obj, "id", item.path);
  const scope = sink.string(obj, "scope", item.path, { required: false });
  const check = sink.string(obj, "check", item.path);
  // "Items without explicit status are interpreted as TODO" (002, Status semantics).
  const status = sink.string(obj, "status", item.path, { required: false }) ?? {
    value: "TODO",
    path: item.path,
  };
  const finding = sink.string(obj, "finding", item.path, { required: false, nullable: true });
  if (!STATUSES.has(status.value)) {
    sink.report("invalid-value", status.path, `status "${status.value}" is not TODO, PASS or FAIL`);
  }
  // "finding: null or explanation string (required when FAIL)"; "--finding ... forbidden when PASS" (002).
  if (status.value === "FAIL" && (finding === undefined || finding.value.trim() === "")) {
    sink.report("qr-finding", status.path, "a FAIL item needs a finding that says why", {
      hint: 'add "finding": "<what failed>"',
    });
  }
  // A PASS item that still carries its finding (real reviews keep the FAIL's note, or say what
  // resolved it): the verdict is PASS either way, so it is said, never blocking.
  if (status.value === "PASS" && finding !== undefined && finding.value.trim() !== "") {
    const text = finding.value.length > 80 ? `${finding.value.slice(0, 77)}…` : finding.value;
    sink.report(
      "qr-pass-finding",
      finding.path,
      `item${id ? ` ${id.value}` : ""} is PASS but keeps a finding ("${text}"); it is read as PASS`,
      { hint: "set finding to null once the item passes, or the status to FAIL if it still fails" },
    );
  }
  if (id === undefined) return undefined;
  const earlier = seen.get(id.value);
  if (earlier !== undefined) {
    sink.report("duplicate-id", id.path, `item id "${id.value}" is used twice`, {
      hint: `the first is at line ${sink.at(earlier.path).line}; ids are unique within a phase`,
    });
    return undefined;
  }
  seen.set(id.value, id);
  const title = (scope ? `[${scope.value}] ` : "") + (check?.value ?? "");
  const base = { id: id.value, group, title, location: sink.at(item.path), checks: [] };
  switch (status.value) {
    case "PASS":
      return {
        ...base,
        settled: {
          status: "met",
          blocking: false,
          reason: "PASS (recorded by the quality review)",
        },
      };
    case "FAIL":
      return {
        ...base,
        settled: {
          status: "unmet",
          blocking: true,
          reason: `FAIL: ${finding?.value ?? "(no finding)"}`,
        },
      };
    default:
      return {
        ...base,
        settled: {
          status: "unmet",
          blocking: true,
          reason: "TODO: not yet verified by the quality review",
          pending: true,
        },
      };
  }
}
