import type { hasLookaround, lineAt, matchingLines, requiredLiterals } from "./lines.js";
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
  literalsOf: typeof requiredLiterals,
): void {
  const { parentPort, workerData } = load(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  const fs = load("node:fs") as typeof import("node:fs");
  const { isAscii } = load("node:buffer") as typeof import("node:buffer");
  const config = workerData as WorkerConfig;
  const clock = new BigInt64Array(config.clock);
  // Non-fatal: grep reads any file; invalid bytes become U+FFFD.
  const decoder = new TextDecoder("utf-8");
  // Roughly least recently used first (see admit). `request` is the last
  // request that used an entry, `used` when (in `tick`s) and `placed` when
  // it took its place in the Map's order.
  const cache = new Map<
    string,
    { text: string; size: number; request: number; used: number; placed: number }
  >();
  let cachedBytes = 0;
  let request = 0;
  let tick = 0;

  const errorText = (e: unknown): string => {
    const message = e instanceof Error ? e.message : String(e);
    // "ENOENT: no such file or directory, open '/abs/x'" → "ENOENT: no such file or directory"
    return message.replace(/, \w+ '.*'$/s, "");
  };

  // One buffer every read goes through, rather than a fresh one per file: the
  // text is copied out of it anyway, and freed buffers do not all go back to
  // the system, so a buffer per file would add to the peak RSS.
  const SCRATCH_BYTES = 1024 * 1024;
  let scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

  /** The file's bytes (a view of the scratch buffer, valid until the next read). */
  const readAll = (fd: number, expected: number): Buffer => {
    if (scratch.length <= expected) scratch = Buffer.allocUnsafe(expected + 1);
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        // It grew since fstat.
        if (length > config.maxFileBytes) {
          throw new Error(`file is over the ${config.maxFileBytes}-byte limit`);
        }
        const larger = Buffer.allocUnsafe(2 * length);
        scratch.copy(larger);
        scratch = larger;
      }
      const got = fs.readSync(fd, scratch, length, scratch.length - length, null);
      if (got === 0) break;
      length += got;
    }
    return scratch.subarray(0, length);
  };

  // How often each one-byte character occurs in the text read so far (a
  // sample of every file), so that literal searches start at the rarest
  // character of their literal.
  const seen = new Float64Array(256);
  const sample = (text: string): void => {
    const step = Math.max(1, Math.floor(text.length / 2048));
    for (let i = 0; i < text.length; i += step) {
      const c = text.charCodeAt(i);
      if (c < 256) seen[c]!++;
    }
  };
  /** Where in `literal` the search starts: its rarest character, leaving at least two. */
  const keyStart = (literal: string): number => {
    let best = 0;
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i + 2 <= literal.length; i++) {
      const c = literal.charCodeAt(i);
      const count = c < 256 ? seen[c]! : 0;
      if (count < fewest) {
        best = i;
        fewest = count;
      }
    }
    return best;
  };

  /** After a large file, let its buffer go. */
  const shrinkScratch = () => {
    if (scratch.length > SCRATCH_BYTES) scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  };

  /** The cached text of `file`, marked as used, or undefined. */
  const cached = (file: string): string | undefined => {
    const hit = cache.get(file);
    if (hit === undefined) return undefined;
    hit.used = ++tick;
    hit.request = request;
    return hit.text;
  };

  // Reading a commit: the current request's files, and what the cache took in and let go.
  let given: Map<string, [number, number] | string> = new Map();
  let givenData: Uint8Array = new Uint8Array();
  const added: string[] = [];
  const dropped: string[] = [];

  /** A file the request brought (`config.given`): its bytes, never the disk's. */
  const readGiven = (file: string): Buffer => {
    const at = given.get(file);
    if (at === undefined) throw new Error("not in the commit");
    if (typeof at === "string") throw new Error(at);
    const bytes = Buffer.from(givenData.buffer, givenData.byteOffset + at[0], at[1] - at[0]);
    if (bytes.length > config.maxFileBytes) {
      throw new Error(`file is ${bytes.length} bytes, over the ${config.maxFileBytes}-byte limit`);
    }
    return bytes;
  };

  const read = (file: string): string => {
    const hit = cached(file);
    if (hit !== undefined) return hit;
    if (config.given) return decode(file, readGiven(file));
    // O_NONBLOCK: a FIFO swapped in after the caller's check must not hang the
    // read. O_NOFOLLOW: every path given is a real path or a glob entry that
    // was no symlink, so a symlink here was swapped in since: refuse it.
    const fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0),
    );
    let bytes: Buffer;
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new Error("not a regular file");
      if (stat.size > config.maxFileBytes) {
        throw new Error(`file is ${stat.size} bytes, over the ${config.maxFileBytes}-byte limit`);
      }
      bytes = readAll(fd, stat.size);
    } finally {
      fs.closeSync(fd);
    }
    return decode(file, bytes);
  };

  /** File bytes → text, counted as a read, sampled and cached. */
  const decode = (file: string, bytes: Buffer): string => {
    Atomics.add(clock, 2, 1n);
    // ASCII decodes to the same text as Latin-1, and fastest so. V8 keeps
    // text within Latin-1 at one byte per character, anything else at two.
    const ascii = isAscii(bytes);
    const text = ascii ? bytes.toString("latin1") : decoder.decode(bytes);
    const size = ascii
      ? bytes.length
      : /[\u0100-\uffff]/.test(text)
        ? 2 * text.length
        : text.length;
    shrinkScratch();
    sample(text);
    // One huge file must not flush everything else out.
    if (size <= config.cacheBytes / 8) admit(file, text, size);
    return text;
  };

  /**
   * Cache `text`, evicting the least recently used entries, but never one the
   * current request has used: a request over more text than the cache holds
   * keeps its first files cached instead of cycling every file through (a
   * plain LRU would then serve the next request over the same files nothing).
   * A hit only stamps its entry; entries move to the back of the Map lazily,
   * when eviction reaches one used since it took its place (moving every hit
   * costs more than the search on a large tree).
   */
  const admit = (file: string, text: string, size: number): void => {
    while (cachedBytes + size > config.cacheBytes) {
      const oldest = cache.entries().next().value;
      if (oldest === undefined) return;
      const [key, entry] = oldest;
      if (entry.used > entry.placed) {
        cache.delete(key);
        cache.set(key, entry);
        entry.placed = ++tick;
        continue;
      }
      if (entry.request === request) return;
      cache.delete(key);
      cachedBytes -= entry.size;
      if (config.given) dropped.push(key);
    }
    const now = ++tick;
    cache.set(file, { text, size, request, used: now, placed: now });
    if (config.given) added.push(file);
    cachedBytes += size;
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
    const literals = literalsOf(source);
    const whole = literals !== undefined || lookaround(source) ? undefined : compile(source, "gm");
    let keyAt: number[] | undefined;
    let keys: string[] | undefined;
    const hits: { file: string; line: number }[] = [];
    const unreadable: { file: string; error: string }[] = [];
    let scanned = 0;

    const scan = (file: string, text: string): void => {
      scanned++;
      if (literals !== undefined) {
        // Chosen once some text has been seen, for every file of the request.
        if (keyAt === undefined) {
          keyAt = literals.map(keyStart);
          keys = literals.map((l, i) => l.slice(keyAt![i], keyAt![i]! + 6));
        }
        // Most files hold none of the literals: say so without allocating.
        let some = false;
        for (const key of keys!) if (text.includes(key)) some = true;
        if (!some) return;
      }
      for (const line of linesMatching(text, single, whole, limit - hits.length, literals, keyAt)) {
        hits.push({ file, line });
      }
    };

    let next = 0;
    while (next < files.length && hits.length < limit) {
      let file = files[next++]!;
      let text: string;
      try {
        text = read(file);
      } catch (e) {
        unreadable.push({ file, error: errorText(e) });
        continue;
      }
      // This file, then those after it already in the cache, under one start
      // of the clock: no file is read in between.
      timed(() => {
        for (;;) {
          scan(file, text);
          if (hits.length >= limit || next >= files.length) return;
          const more = cached(files[next]!);
          if (more === undefined) return;
          file = files[next++]!;
          text = more;
        }
      });
    }
    return { hits, scanned, unreadable };
  };

  const handle = (request: WorkerRequest): unknown => {
    switch (request.op) {
      case "grep":
        return grep(
          request.files === "" ? [] : request.files.split("\0"),
          request.source,
          request.limit,
        );
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

  parentPort?.on("message", (message: WorkerRequest) => {
    request++;
    const brought = message.given;
    if (brought) {
      given = new Map<string, [number, number] | string>(brought.errors);
      for (const [i, k] of brought.keys.entries()) given.set(k, brought.spans[i]!);
      givenData = brought.data;
    }
    let response: WorkerResponse;
    try {
      response = { id: message.id, ok: true, value: handle(message) };
    } catch (e) {
      response = { id: message.id, ok: false, error: errorText(e) };
    }
    if (config.given) {
      response.held = { added: added.splice(0), dropped: dropped.splice(0) };
      given = new Map();
      givenData = new Uint8Array();
    }
    parentPort.postMessage(response);
  });
}
