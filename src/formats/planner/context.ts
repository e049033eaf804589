import type { Contract } from "../../model/contract.js";
import { parseJsonKind } from "../json/kind-read.js";
import { keys } from "../json/sink.js";
import { CONTEXT_FIELDS, CONTEXT_OPTIONAL } from "./keys.js";

const ALLOWED = keys(...CONTEXT_FIELDS, ...CONTEXT_OPTIONAL);

/**
 * `context.json`: "All fields are string arrays. Empty arrays are acceptable;
 * omitting fields is not." (002). It holds no criteria: it is the planning
 * session's frozen input, checked so a reviewer can trust what it says.
 */
export function parsePlannerContext(path: string, bytes: Uint8Array): Contract {
  return parseJsonKind("planner-context", path, bytes, (sink, root) => {
    sink.unknownKeys(root, ALLOWED, [], "planner-unknown-key", "the planner's context.json");
    for (const field of CONTEXT_FIELDS) sink.textList(root, field, []);
    for (const field of CONTEXT_OPTIONAL) sink.textList(root, field, [], false);
    return {};
  });
}
