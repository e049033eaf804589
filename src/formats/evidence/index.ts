import type { Problem } from "../../model/contract.js";
import type { Citation, EvidenceFile } from "../../model/evidence.js";
import { problem, sortProblems } from "../../model/problems.js";
import { type JsonDocument, parseJsonDocument } from "../json/document.js";
import { formatPath, type JsonPath } from "../json/path.js";
import { field, isObject, objectEntries } from "../json/raw.js";
import { normalizeRepoPath, unsafePathReason } from "../paths.js";
import { decodeContract, isProblem } from "../text.js";
import { evidenceSchemaProblems, refusedCitations } from "./issues.js";
import { CitationSchema, EVIDENCE_VERSION, EvidenceFileSchema } from "./schema.js";

export type { Citation, EvidenceFile } from "../../model/evidence.js";

const EVIDENCE_NAME = /^phase-(\d+)-evidence\.json$/;

/**
 * Parse and validate a `phase-N-evidence.json`. Pure and total, like the
 * contract parsers: input hygiene → JSON syntax (stops here) → duplicate
 * keys → version (stops here when unsupported) → schema → path safety,
 * duplicate citations and file-name/phase agreement, all problems at once.
 * Any error leaves `citations` empty: evidence is all-or-nothing.
 */
export function parseEvidenceFile(path: string, bytes: Uint8Array): EvidenceFile {
  const decoded = decodeContract(path, bytes);
  if (isProblem(decoded)) return invalid([decoded]);
  const parsed = parseJsonDocument(path, decoded.text);
  const doc = parsed.document;
  if (doc === undefined) return invalid(parsed.problems);
  const version = unsupportedVersion(doc);
  if (version) return invalid([...parsed.problems, version]);

  const schema = EvidenceFileSchema.safeParse(doc.value);
  const problems = [
    ...parsed.problems,
    ...evidenceSchemaProblems(doc, schema),
    ...phaseProblems(doc),
  ];
  // Each citation's own verdict, from the file's where it has one: a citation
  // the schema refused is not read again (one of 10^5 keys is read once).
  const refused = schema.success ? new Set<number>() : refusedCitations(schema.error.issues);
  const citationAt = (entry: { value: unknown; path: JsonPath }) => {
    const index = entry.path[1] as number;
    if (schema.success) return schema.data.citations[index];
    return refused.has(index) ? undefined : CitationSchema.safeParse(entry.value).data;
  };
  const citations: Citation[] = [];
  const seen = new Map<string, number>();
  for (const entry of objectEntries(isObject(doc.value) ? doc.value : {}, "citations", [])) {
    const raw = field(entry.value, "path");
    const unsafe = typeof raw === "string" ? unsafePathReason(raw) : undefined;
    if (unsafe) {
      problems.push(
        problem(
          "unsafe-path",
          doc.valueAt([...entry.path, "path"]),
          `${formatPath([...entry.path, "path"])} ${JSON.stringify(raw)} ${unsafe}`,
          { hint: "paths are relative to the repository root, with / separators" },
        ),
      );
    }
    const data = citationAt(entry);
    if (data === undefined || unsafe) continue;
    const location = doc.valueAt(entry.path);
    const { task, check, evidence } = data;
    const key = JSON.stringify([task, check, evidence]);
    const firstLine = seen.get(key);
    if (firstLine !== undefined) {
      // Two citations for one entry leave the verdict to whichever is read first.
      problems.push(
        problem(
          "invalid-value",
          location,
          `${formatPath(entry.path)} cites ${task} check ${check} evidence ${evidence} again (first on line ${firstLine})`,
          { hint: "keep one citation per evidence_required entry" },
        ),
      );
      continue;
    }
    seen.set(key, location.line);
    citations.push({ ...data, path: normalizeRepoPath(data.path), location });
  }

  const sorted = sortProblems(problems);
  const failed = sorted.some((p) => p.severity === "error");
  return { citations: failed ? [] : citations, problems: sorted };
}

/** The citations one behavioral check receives: its task id and 0-based index in `verification[]`. */
export function citationsFor(
  citations: readonly Citation[],
  task: string,
  check: number,
): Citation[] {
  return citations.filter((c) => c.task === task && c.check === check);
}

function invalid(problems: Problem[]): EvidenceFile {
  return { citations: [], problems: sortProblems(problems) };
}

/** Another version's shape may differ anywhere: one problem, nothing else judged. */
function unsupportedVersion(doc: JsonDocument): Problem | undefined {
  const version = isObject(doc.value) ? field(doc.value, "version") : undefined;
  if (typeof version !== "number" || version === EVIDENCE_VERSION) return undefined;
  return problem(
    "unsupported-version",
    doc.valueAt(["version"]),
    `version ${version} is not supported; contract-gate reads evidence files of version ${EVIDENCE_VERSION}`,
  );
}

function phaseProblems(doc: JsonDocument): Problem[] {
  const digits = EVIDENCE_NAME.exec(doc.path.slice(doc.path.lastIndexOf("/") + 1))?.[1];
  const phase = isObject(doc.value) ? field(doc.value, "phase") : undefined;
  // A phase that is not a positive integer is already a schema error.
  if (digits === undefined || !Number.isSafeInteger(phase) || (phase as number) < 1) return [];
  if (phase === Number(digits)) return [];
  return [
    problem(
      "phase-mismatch",
      doc.valueAt(["phase"]),
      `phase is ${phase} but the file is named phase-${digits}-evidence.json`,
      { hint: "rename the file or correct phase, so citations reach the right contract" },
    ),
  ];
}
