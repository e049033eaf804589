// The JSON Schemas of phase contracts and evidence files, for editors: generated
// from the zod schemas the gate validates with, committed under schema/ by `npm run docs`.
import { z } from "zod";
import { PlainEvidenceFileSchema } from "../src/formats/evidence/schema.js";
import { UNSAFE_COMMAND_CHAR } from "../src/formats/plan-contract/command-safety.js";
import { ignorableValues } from "../src/formats/plan-contract/ignored-keys.js";
import { CHECK_TYPES, KEYS, PlanContractSchema } from "../src/formats/plan-contract/schema.js";
import { MAX_ACTION_CHARS, TASK_ID } from "../src/formats/plan-contract/task-rules.js";
import { HASH_FORMAT } from "../src/formats/plan-hash.js";

/** Where the committed schemas are published (the `v1` tag of the repository). */
export const SCHEMA_URL_BASE =
  "https://raw.githubusercontent.com/contract-gate/contract-gate/v1/schema/";
export const CONTRACT_SCHEMA_FILE = "phase-contract.schema.json";
export const EVIDENCE_SCHEMA_FILE = "phase-evidence.schema.json";

/** A JSON Schema node, as `z.toJSONSchema` writes it. */
export interface JsonSchemaNode {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  oneOf?: JsonSchemaNode[];
  [keyword: string]: unknown;
}

/**
 * `phase-N-contract.json` v1. Beyond the zod schema it states, for editors,
 * the rules that have problem codes of their own and so are checked outside
 * zod (task id, list minimums, `action` length, command safety, hash format),
 * each from the constant its rule uses; and it allows the generator leftovers
 * the gate ignores with a warning (`ignored-key`). Cross-field rules (ids,
 * dependencies, waves, file lists), path safety and regex validity it cannot
 * state: `contract-gate validate` reports those.
 */
export function phaseContractJsonSchema(): JsonSchemaNode {
  const schema = z.toJSONSchema(PlanContractSchema, {
    target: "draft-2020-12",
    io: "input",
  }) as JsonSchemaNode;
  const root = props(schema);
  root.tasks!.minItems = 1;
  root.success_criteria!.minItems = 1;
  root.source_plan_hash!.pattern = `^(?:${HASH_FORMAT.source.slice(1, -1)})?$`;
  const task = props(root.tasks!.items!);
  task.id!.pattern = TASK_ID.source;
  task.action!.maxLength = MAX_ACTION_CHARS;
  task.verification!.minItems = 1;
  for (const check of task.verification!.items!.oneOf!) {
    const type = props(check).type!.const as (typeof CHECK_TYPES)[number];
    if (type === "command-exit") {
      props(check).command!.pattern = `^(?![\\s\\S]*${UNSAFE_COMMAND_CHAR.source})`;
    }
    for (const key of foreignKeys(type)) {
      props(check)[key] = {
        description: `Belongs to other check types; ignored here at an empty or default value (\`ignored-key\` warning).`,
        enum: ignorableValues(key),
      };
    }
  }
  return published(schema, CONTRACT_SCHEMA_FILE, "contract-gate phase contract (v1)");
}

/** `phase-N-evidence.json` v1, as the zod schema states it. */
export function phaseEvidenceJsonSchema(): JsonSchemaNode {
  const schema = z.toJSONSchema(PlainEvidenceFileSchema, {
    target: "draft-2020-12",
    io: "input",
  }) as JsonSchemaNode;
  return published(schema, EVIDENCE_SCHEMA_FILE, "contract-gate phase evidence file (v1)");
}

/** The keys other check types define that `type` does not. */
export function foreignKeys(type: (typeof CHECK_TYPES)[number]): string[] {
  const own = new Set(KEYS.check[type]);
  return [...new Set(CHECK_TYPES.flatMap((t) => KEYS.check[t]))].filter((k) => !own.has(k));
}

function props(node: JsonSchemaNode): Record<string, JsonSchemaNode> {
  if (node.properties === undefined) throw new Error("expected an object schema");
  return node.properties;
}

/** `$schema` first, then `$id` and `title`, then the rest as generated. */
function published(schema: JsonSchemaNode, file: string, title: string): JsonSchemaNode {
  const { $schema, ...rest } = schema;
  return { $schema, $id: `${SCHEMA_URL_BASE}${file}`, title, ...rest };
}
