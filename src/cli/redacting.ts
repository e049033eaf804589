import { secretValues } from "../process/env.js";
import { type Redact, redactorFor } from "../report/redact.js";
import type { CliIO } from "./io.js";

/** The redactor for this process's environment: its secret values (report/redact.ts). */
export function cliRedactor(io: CliIO): Redact {
  return redactorFor(secretValues(io.env));
}

/**
 * The CLI's terminal with the job's secret values redacted: a report quotes
 * what checks printed, and CI logs keep it. Each write is redacted whole (the
 * reports write a document, or a contract's part of one, at a time).
 */
export function redactingCliIO(io: CliIO, redact: Redact): CliIO {
  return { ...io, stdout: (s) => io.stdout(redact(s)), stderr: (s) => io.stderr(redact(s)) };
}
