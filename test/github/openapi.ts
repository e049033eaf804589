/**
 * GitHub's REST API description (@octokit/openapi, OpenAPI 3.0.3) as a request
 * validator: route matching by method + path template, path and query
 * parameters (coerced from strings), and JSON bodies against the operation's
 * requestBody schema. The parsed spec and every compiled validator are cached
 * at module level, so many stand-ins in one test file pay for parsing once.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type Plugin, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SPEC_ID = "https://api.github.com/openapi.json";
const METHODS = ["get", "put", "post", "patch", "delete", "head", "options"] as const;

export interface ParamSpec {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: JsonObject;
  /** JSON pointer (from the spec root) of the parameter's schema. */
  pointer: string[];
}

export interface Operation {
  method: string;
  template: string;
  operationId: string;
  docsUrl: string;
  params: ParamSpec[];
  body?: { required: boolean; pointer: string[] };
  /** Status codes with a JSON response schema → pointer to that schema. */
  responses: Map<number, string[]>;
  segments: string[];
}

export interface Spec {
  document: JsonObject;
  operations: Operation[];
  /** `#/components/examples/<name>` values, deep-cloned on every call. */
  example(name: string): JsonObject;
}

let cached: Spec | undefined;
let ajvInstance: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

export function specPath(): string {
  return createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
}

/** The parsed spec and its operation table (parsed once per process). */
export function loadSpec(): Spec {
  if (cached) return cached;
  const document = JSON.parse(readFileSync(specPath(), "utf8")) as JsonObject;
  const paths = document.paths as Record<string, JsonObject>;
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    const shared = (item.parameters as Json[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as JsonObject | undefined;
      if (!op) continue;
      const base = ["paths", template, method];
      const params: ParamSpec[] = [];
      const own = (op.parameters as Json[] | undefined) ?? [];
      const all = [
        ...shared.map((p, i) => ({ p, at: ["paths", template, "parameters", String(i)] })),
        ...own.map((p, i) => ({ p, at: [...base, "parameters", String(i)] })),
      ];
      for (const { p, at } of all) {
        const { value, pointer } = deref(document, p as JsonObject, at);
        params.push({
          name: String(value.name),
          in: value.in as ParamSpec["in"],
          required: value.required === true,
          schema: (value.schema as JsonObject | undefined) ?? {},
          pointer: [...pointer, "schema"],
        });
      }
      let body: Operation["body"];
      if (op.requestBody) {
        const { value, pointer } = deref(document, op.requestBody as JsonObject, [
          ...base,
          "requestBody",
        ]);
        const content = value.content as JsonObject | undefined;
        if (content?.["application/json"]) {
          body = {
            required: value.required === true,
            pointer: [...pointer, "content", "application/json", "schema"],
          };
        }
      }
      const responses = new Map<number, string[]>();
      for (const [code, r] of Object.entries((op.responses as JsonObject | undefined) ?? {})) {
        const { value, pointer } = deref(document, r as JsonObject, [...base, "responses", code]);
        const content = value.content as JsonObject | undefined;
        if (content?.["application/json"] && /^\d+$/.test(code)) {
          responses.set(Number(code), [...pointer, "content", "application/json", "schema"]);
        }
      }
      const docs = op.externalDocs as JsonObject | undefined;
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: String(op.operationId),
        docsUrl: typeof docs?.url === "string" ? docs.url : "https://docs.github.com/rest",
        params,
        body,
        responses,
        segments: template.split("/").slice(1),
      });
    }
  }
  const examples = (document.components as JsonObject).examples as Record<string, JsonObject>;
  cached = {
    document,
    operations,
    example(name) {
      const found = examples[name];
      if (!found) throw new Error(`no example ${name} in the OpenAPI spec`);
      return structuredClone(found.value) as JsonObject;
    },
  };
  return cached;
}

function deref(
  document: JsonObject,
  node: JsonObject,
  at: string[],
): { value: JsonObject; pointer: string[] } {
  let value = node;
  let pointer = at;
  for (let i = 0; i < 10 && typeof value.$ref === "string"; i++) {
    pointer = value.$ref.replace(/^#\//, "").split("/").map(unescapePointer);
    value = pointer.reduce<Json>(
      (o, k) => (o as JsonObject)[k] as Json,
      document as Json,
    ) as JsonObject;
  }
  return { value, pointer };
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}

function pointerRef(pointer: string[]): string {
  return `${SPEC_ID}#/${pointer
    .map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1")))
    .join("/")}`;
}

function ajv(): Ajv {
  if (ajvInstance) return ajvInstance;
  // strict: false tolerates the spec's vendor keywords (x-github, example,
  // discriminator); `nullable` (OpenAPI 3.0) is understood by Ajv itself.
  const instance = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  const addFormats = ((formatsModule as unknown as { default?: Plugin<unknown> }).default ??
    formatsModule) as unknown as Plugin<unknown>;
  addFormats(instance, undefined);
  // The whole document once: every `#/components/...` ref resolves inside it.
  instance.addSchema(loadSpec().document as object, SPEC_ID);
  ajvInstance = instance;
  return instance;
}

/** A compiled validator for the schema at `pointer` (cached per pointer). */
export function validatorAt(pointer: string[]): ValidateFunction {
  const ref = pointerRef(pointer);
  let v = validators.get(ref);
  if (!v) {
    v = ajv().compile({ $ref: ref });
    validators.set(ref, v);
  }
  return v;
}

export interface RouteMatch {
  op: Operation;
  params: Record<string, string>;
}

/**
 * The operation for `method` + `pathname`, preferring literal segments over
 * parameters (`/issues/comments` beats `/issues/{issue_number}`). `undefined`
 * when no template matches; `methodMismatch` when the path exists but not the
 * method.
 */
export function matchRoute(
  method: string,
  pathname: string,
): RouteMatch | { methodMismatch: true } | undefined {
  const raw = pathname.replace(/\/+$/, "").split("/").slice(1);
  let best: { op: Operation; score: string; params: Record<string, string> } | undefined;
  let pathKnown = false;
  for (const op of loadSpec().operations) {
    if (op.segments.length !== raw.length) continue;
    const params: Record<string, string> = {};
    let score = "";
    let ok = true;
    for (let i = 0; i < raw.length; i++) {
      const t = op.segments[i]!;
      const s = raw[i]!;
      const m = /^\{([^}]+)\}$/.exec(t);
      if (m) {
        if (s === "") {
          ok = false;
          break;
        }
        params[m[1]!] = safeDecode(s);
        score += "0";
      } else if (t === s) {
        score += "1";
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    pathKnown = true;
    if (op.method !== method.toUpperCase()) continue;
    if (!best || score > best.score) best = { op, score, params };
  }
  if (best) return { op: best.op, params: best.params };
  return pathKnown ? { methodMismatch: true } : undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Coerce a path/query string to the parameter schema's type, or report why not. */
function coerce(value: string, schema: JsonObject): { ok: true; value: Json } | { ok: false } {
  switch (schema.type) {
    case "integer":
      return /^-?\d+$/.test(value) ? { ok: true, value: Number(value) } : { ok: false };
    case "number":
      return value.trim() !== "" && Number.isFinite(Number(value))
        ? { ok: true, value: Number(value) }
        : { ok: false };
    case "boolean":
      return value === "true" || value === "false"
        ? { ok: true, value: value === "true" }
        : { ok: false };
    case "array":
      return { ok: true, value: value.split(",") };
    default:
      return { ok: true, value };
  }
}

export interface RequestProblems {
  /** GitHub would reject the request (422/400). */
  errors: string[];
  /** Accepted by GitHub but probably a mistake (ignored parameter). */
  warnings: string[];
  /** Typed query values for the handler. */
  query: Record<string, Json>;
}

/** Path and query parameters of a matched route. */
export function checkParams(match: RouteMatch, search: URLSearchParams): RequestProblems {
  const errors: string[] = [];
  const warnings: string[] = [];
  const query: Record<string, Json> = {};
  const { op } = match;
  for (const p of op.params) {
    if (p.in === "path") {
      const raw = match.params[p.name];
      if (raw === undefined) continue;
      const c = coerce(raw, p.schema);
      if (!c.ok || !validatorAt(p.pointer)(c.value)) {
        errors.push(
          `path parameter ${p.name}: ${JSON.stringify(raw)} is not a valid ${typeName(p.schema)}`,
        );
      }
    } else if (p.in === "query") {
      const all = search.getAll(p.name);
      const raw = all.at(-1);
      if (raw === undefined) {
        if (p.required) errors.push(`query parameter ${p.name} is required`);
        continue;
      }
      const c = coerce(raw, p.schema);
      const v = validatorAt(p.pointer);
      if (!c.ok || !v(c.value)) {
        errors.push(
          `query parameter ${p.name}: ${JSON.stringify(raw)} is not ${describeSchema(p.schema)}`,
        );
        continue;
      }
      query[p.name] = c.value;
    }
  }
  const declared = new Set(op.params.filter((p) => p.in === "query").map((p) => p.name));
  for (const key of new Set(search.keys())) {
    if (!declared.has(key)) {
      warnings.push(
        `query parameter ${key} is not a parameter of ${op.operationId} (GitHub ignores it)`,
      );
    }
  }
  return { errors, warnings, query };
}

function typeName(schema: JsonObject): string {
  return typeof schema.type === "string" ? schema.type : "value";
}

function describeSchema(schema: JsonObject): string {
  if (Array.isArray(schema.enum)) return `one of ${JSON.stringify(schema.enum)}`;
  return `a valid ${typeName(schema)}`;
}

/**
 * The JSON body against the operation's requestBody schema. Messages follow
 * GitHub's "Invalid request." style for schema failures.
 */
export function checkBody(op: Operation, body: unknown, present: boolean): string[] {
  if (!op.body) return [];
  if (!present) return op.body.required ? ["a JSON request body is required"] : [];
  const v = validatorAt(op.body.pointer);
  if (v(body)) return [];
  return describeErrors(v.errors ?? [], body);
}

/** A response body against the operation's schema for `status` (stand-in self-check). */
export function checkResponse(op: Operation, status: number, body: unknown): string[] {
  const pointer = op.responses.get(status);
  if (!pointer) return [];
  const v = validatorAt(pointer);
  if (v(body)) return [];
  // OpenAPI 3.0 `nullable` + `enum` without null in the list: GitHub means
  // "null or one of"; Ajv reads it literally. Not a real mismatch.
  const real = (v.errors ?? []).filter(
    (e) => !(e.keyword === "enum" && valueAt(body, e.instancePath) === null),
  );
  return real.map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}

function valueAt(root: unknown, instancePath: string): unknown {
  if (!instancePath) return root;
  let cur: unknown = root;
  for (const part of instancePath.split("/").slice(1).map(unescapePointer)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function describeErrors(errors: ErrorObject[], body: unknown): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const at = e.instancePath ? `For '${e.instancePath.slice(1)}', ` : "";
    const value = valueAt(body, e.instancePath);
    switch (e.keyword) {
      case "required":
        out.push(
          `${at}"${(e.params as { missingProperty: string }).missingProperty}" wasn't supplied.`,
        );
        break;
      case "enum":
        out.push(
          `${at}${JSON.stringify(value)} is not a member of ${JSON.stringify(
            (e.params as { allowedValues: unknown[] }).allowedValues,
          )}.`,
        );
        break;
      case "type":
        out.push(`${at}${JSON.stringify(value)} is not a ${(e.params as { type: string }).type}.`);
        break;
      case "maxLength":
        out.push(
          `Only ${(e.params as { limit: number }).limit} characters are allowed; ${
            typeof value === "string" ? [...value].length : "?"
          } were supplied.`,
        );
        break;
      case "maxItems":
        out.push(
          `${at}${Array.isArray(value) ? value.length : "?"} items supplied; at most ${
            (e.params as { limit: number }).limit
          } are allowed.`,
        );
        break;
      case "anyOf":
      case "oneOf":
        out.push(`${at}the request does not match any allowed form (${e.keyword}).`);
        break;
      default:
        out.push(`${at}${e.message ?? e.keyword} (${e.keyword}).`);
    }
  }
  return [...new Set(out)];
}
