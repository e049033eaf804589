import { hasLookaround, lineAt, matchingLines, requiredLiterals } from "./lines.js";
import { fileWorker } from "./worker-main.js";

/**
 * The file worker as one self-contained CommonJS script, for
 * `new Worker(WORKER_SOURCE, { eval: true })`. A worker file beside the
 * bundle would not survive ncc's single-file output; source text does, even
 * minified, because every function here references only its parameters.
 *
 * Source text is what the running toolchain made of the TypeScript, so one
 * helper is supplied: esbuild with `keepNames` (tsx) wraps functions in
 * `__name(fn, "name")`. Coverage tools that instrument function bodies
 * would still break this; V8 coverage does not.
 */
export const WORKER_SOURCE = `"use strict";
const __name = (fn) => fn;
(${fileWorker.toString()})(require, ${matchingLines.toString()}, ${lineAt.toString()}, ${hasLookaround.toString()}, ${requiredLiterals.toString()});
`;
