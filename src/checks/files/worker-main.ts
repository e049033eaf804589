import type { hasLookaround, lineAt, matchingLines } from "./lines.js";
import type { WorkerConfig, WorkerRequest, WorkerResponse } from "./protocol.js";

/**
 * The body of the file worker. It is never called in this thread: its source
 * text becomes an eval worker (worker-source.ts), which is what lets it live
 * inside a single-file bundle. So it must be self-contained — builtins come
 * through `load` (the worker's CommonJS `require`), helpers through
 * parameters, and nothing outside this function may be referenced.
 *
 * Reading and caching live here beside the regex work so that file text is
 * never copied between threads; the cache dies with the worker when a
 * runaway pattern forces the main thread to terminate it.
 */
export function fileWorker(
  load: NodeJS.Require,
  linesMatching: typeof matchingLines,
  lineOf: typeof lineAt,
  lookaround: typeof hasLookaround,
): void {
  const { parentPort, workerData } = load(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  const fs = load("node:fs") as typeof import("node:fs");
  const config = workerData as WorkerConfig;
  const clock = new BigInt64Array(config.clock);
  // Non-fatal: grep reads any file; invalid bytes become U+FFFD.
  const decoder = new TextDecoder("utf-8");
  const cache = new Map<string, { text: string; size: number }>();
  let cachedBytes = 0;

  const errorText = (e: unknown): string => {
    const message = e instanceof Error ? e.message : String(e);
    // "ENOENT: no such file or directory, open '/abs/x'" → "ENOENT: no such file or directory"
    return message.replace(/, \w+ '.*'$/s, "");
  };

  const read = (file: string): string => {
    const hit = cache.get(file);
    if (hit !== undefined) {
      // Re-insert so Map order is least-recently-used first.
      cache.delete(file);
      cache.set(file, hit);
      return hit.text;
    }
    // O_NONBLOCK: a FIFO swapped in after the caller's lstat must not hang the read.
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    let bytes: Buffer;
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new Error("not a regular file");
      if (stat.size > config.maxFileBytes) {
        throw new Error(`file is ${stat.size} bytes, over the ${config.maxFileBytes}-byte limit`);
      }
      bytes = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    Atomics.add(clock, 2, 1n);
    const text = decoder.decode(bytes);
    // One huge file must not flush everything else out.
    if (bytes.length <= config.cacheBytes / 8) {
      cache.set(file, { text, size: bytes.length });
      cachedBytes += bytes.length;
      for (const [key, entry] of cache) {
        if (cachedBytes <= config.cacheBytes) break;
        cache.delete(key);
        cachedBytes -= entry.size;
      }
    }
    return text;
  };

  /** Run regex work with the shared clock running, so the main thread can time it. */
  const timed = <T>(work: () => T): T => {
    const started = Date.now();
    Atomics.store(clock, 0, BigInt(started));
    try {
      return work();
    } finally {
      Atomics.store(clock, 0, 0n);
      Atomics.add(clock, 1, BigInt(Date.now() - started));
    }
  };

  const compile = (source: string, flags: string): RegExp => {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      // V8 says "Invalid regular expression: /x(/: Unterminated group"; keep the cause.
      const message = errorText(e);
      throw new Error(
        `invalid regex /${source}/${flags}: ${message.slice(message.lastIndexOf(": ") + 2)}`,
      );
    }
  };

  const grep = (files: readonly string[], source: string, limit: number) => {
    const single = compile(source, "");
    const whole = lookaround(source) ? undefined : compile(source, "gm");
    const hits: { file: string; line: number }[] = [];
    const unreadable: { file: string; error: string }[] = [];
    let scanned = 0;
    for (const file of files) {
      if (hits.length >= limit) break;
      let text: string;
      try {
        text = read(file);
      } catch (e) {
        unreadable.push({ file, error: errorText(e) });
        continue;
      }
      scanned++;
      const lines = timed(() => linesMatching(text, single, whole, limit - hits.length));
      for (const line of lines) hits.push({ file, line });
    }
    return { hits, scanned, unreadable };
  };

  const handle = (request: WorkerRequest): unknown => {
    switch (request.op) {
      case "grep":
        return grep(request.files, request.source, request.limit);
      case "contains":
        return read(request.file).includes(request.needle);
      case "line":
        return lineOf(read(request.file), request.line);
      case "match": {
        const re = compile(request.source, request.flags);
        return timed(() => re.test(request.text));
      }
    }
  };

  parentPort?.on("message", (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      response = { id: request.id, ok: true, value: handle(request) };
    } catch (e) {
      response = { id: request.id, ok: false, error: errorText(e) };
    }
    parentPort.postMessage(response);
  });
}
