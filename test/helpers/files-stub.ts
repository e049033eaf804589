import type { FileService } from "../../src/checks/types.js";

/**
 * A FileService stub for the process executors, which only use `matchText`:
 * plain RegExp matching is enough there (the real service adds the time bound).
 */
export function stubFiles(matchText: FileService["matchText"]): FileService {
  const unused = () => Promise.reject(new Error("not used by process checks"));
  return {
    matchText,
    grep: unused,
    contains: unused,
    readLine: unused,
    stats: () => ({ diskReads: 0, requests: 0, regexTimeouts: 0 }),
    invalidate: async () => {},
    close: async () => {},
  };
}

/** The stub with ordinary RegExp semantics. */
export const regexFiles: FileService = stubFiles(async (text, source, flags) => ({
  ok: true,
  value: new RegExp(source, flags).test(text),
}));
