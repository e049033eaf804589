import { Worker } from "node:worker_threads";
import type {
  BlobSource,
  FileService,
  FileServiceStats,
  GrepResult,
  LineRead,
  RegexOutcome,
} from "../types.js";
import type { GivenFiles, WorkerConfig, WorkerRequest, WorkerResponse } from "./protocol.js";
import { WORKER_SOURCE } from "./worker-source.js";

export interface FileServiceSettings {
  /** Bound for the regex work of one request, milliseconds. */
  regexTimeoutMs: number;
  /** Aborting (Ctrl-C) stops the worker and fails every pending request. */
  signal?: AbortSignal;
  /** Decoded file text kept between checks, bytes. */
  cacheBytes?: number;
  /** Files larger than this are refused instead of read into memory, bytes. */
  maxFileBytes?: number;
  /** An idle worker is stopped (its cache freed) after this long, milliseconds. */
  idleReleaseMs?: number;
  /**
   * Read files from here (the head commit's blobs, keyed by path) instead of
   * the disk: the service sends the worker each file it lacks with the
   * request that needs it, at most `givenChunkBytes` per request.
   */
  blobs?: BlobSource;
  givenChunkBytes?: number;
}

// A grep over a commit's files goes to the worker in requests of about this
// many bytes: the blobs of one request are held twice for a moment (git's
// answer and the worker's copy), so a tree larger than that never is.
const DEFAULT_GIVEN_CHUNK_BYTES = 4 * 1024 * 1024;

// Sized so that a typical tree (the benchmark's: 5,000 files, 100 MB) is read
// once per run however many checks grep it, within a 300 MB peak RSS: ASCII
// and Latin-1 text costs V8 one byte per character.
const DEFAULT_CACHE_BYTES = 160 * 1024 * 1024;
const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
// Caps the worker heap so a pathological request fails alone instead of taking the process down.
const WORKER_HEAP_MB = 512;
// Nearly everything the worker allocates is file text it keeps: a small young
// generation costs little in copying and keeps tens of MB off the peak RSS.
const WORKER_YOUNG_MB = 8;
// Every byte the process holds makes each fork slower (spawning a command
// took 20-90% longer with 100 MB cached), so a cache should not outlive the
// burst of file checks that filled it by much.
const DEFAULT_IDLE_RELEASE_MS = 500;

type Request = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

interface Job {
  /** Absent for an invalidation: drop the worker and its cache at this point of the queue. */
  request?: Request;
  /** Regex time already spent by the call this request continues (a grep in chunks), ms. */
  spentMs?: number;
  /** Told the regex time spent when the request ends. */
  onSpent?: (ms: number) => void;
  /** `/source/flags` of the regex the request runs, for the timeout message. */
  regex?: string;
  resolve: (outcome: RegexOutcome<unknown>) => void;
}

/**
 * The run's file service: one worker thread that reads, caches and scans
 * files, fed one request at a time. The main thread times each request's
 * regex work and terminates the worker when it runs over, since a regex
 * cannot be interrupted from inside its own thread; the next request gets a
 * fresh worker (and an empty cache). A worker left idle is stopped too.
 */
export function createFileService(settings: FileServiceSettings): FileService {
  return new WorkerFileService(settings);
}

class WorkerFileService implements FileService {
  readonly #timeoutMs: number;
  readonly #idleReleaseMs: number;
  #idle: NodeJS.Timeout | undefined;
  readonly #config: Omit<WorkerConfig, "clock">;
  #worker: Worker | undefined;
  #clock: BigInt64Array | undefined;
  #timer: NodeJS.Timeout | undefined;
  #queue: Job[] = [];
  #current: (Job & { id: number }) | undefined;
  #nextId = 1;
  /** Why the service takes no more requests, once closed or aborted. */
  #stopped: string | undefined;
  #stats: FileServiceStats = { diskReads: 0, requests: 0, regexTimeouts: 0 };
  readonly #blobs: BlobSource | undefined;
  readonly #chunkBytes: number;
  /** Reading a commit: the keys the worker's cache holds (as it last said). */
  readonly #held = new Set<string>();

  constructor(settings: FileServiceSettings) {
    this.#timeoutMs = settings.regexTimeoutMs;
    this.#blobs = settings.blobs;
    this.#chunkBytes = settings.givenChunkBytes ?? DEFAULT_GIVEN_CHUNK_BYTES;
    this.#idleReleaseMs = settings.idleReleaseMs ?? DEFAULT_IDLE_RELEASE_MS;
    this.#config = {
      cacheBytes: settings.cacheBytes ?? DEFAULT_CACHE_BYTES,
      maxFileBytes: settings.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      given: settings.blobs !== undefined,
    };
    const signal = settings.signal;
    const abort = () => void this.#stop("the run was aborted");
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
  }

  matchText(text: string, source: string, flags: string): Promise<RegexOutcome<boolean>> {
    return this.#send({ op: "match", text, source, flags }, `/${source}/${flags}`);
  }

  grep(files: readonly string[], source: string, limit: number): Promise<RegexOutcome<GrepResult>> {
    if (this.#blobs !== undefined) return this.#grepInChunks(this.#blobs, files, source, limit);
    return this.#send({ op: "grep", files: files.join("\0"), source, limit }, `/${source}/`);
  }

  /**
   * A grep over a commit's files, as requests of at most `givenChunkBytes`
   * of file bytes each, one after another: one answer, and one regex time
   * bound over them all, as for a single request.
   */
  async #grepInChunks(
    blobs: BlobSource,
    files: readonly string[],
    source: string,
    limit: number,
  ): Promise<RegexOutcome<GrepResult>> {
    let sizes: ReadonlyMap<string, number>;
    try {
      sizes = await blobs.sizes();
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
    const total: GrepResult = { hits: [], scanned: 0, unreadable: [] };
    let spentMs = 0;
    let start = 0;
    while (start < files.length && total.hits.length < limit) {
      let end = start;
      let bytes = 0;
      while (
        end < files.length &&
        (end === start || bytes + (sizes.get(files[end]!) ?? 0) <= this.#chunkBytes)
      ) {
        bytes += sizes.get(files[end]!) ?? 0;
        end++;
      }
      const request: Request = {
        op: "grep",
        files: files.slice(start, end).join("\0"),
        source,
        limit: limit - total.hits.length,
      };
      const part = await this.#send<GrepResult>(request, `/${source}/`, spentMs, (ms) => {
        spentMs = ms;
      });
      if (!part.ok) return part;
      total.hits.push(...part.value.hits);
      total.scanned += part.value.scanned;
      total.unreadable.push(...part.value.unreadable);
      start = end;
    }
    return { ok: true, value: total };
  }

  contains(file: string, needle: string): Promise<RegexOutcome<boolean>> {
    return this.#send({ op: "contains", file, needle });
  }

  readLine(file: string, line: number): Promise<RegexOutcome<LineRead>> {
    return this.#send({ op: "line", file, line });
  }

  stats(): FileServiceStats {
    const live = this.#clock ? Number(Atomics.load(this.#clock, 2)) : 0;
    return { ...this.#stats, diskReads: this.#stats.diskReads + live };
  }

  async close(): Promise<void> {
    await this.#stop("the file service was closed");
  }

  /**
   * Forget every cached file: requests queued before this call still see the
   * old cache, requests after it read from disk again. The engine calls it
   * between waves, since a command of wave k may change what wave k+1 reads.
   */
  invalidate(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.#queue.push({ resolve: () => resolve() });
      this.#pump();
    });
  }

  #send<T>(
    request: Request,
    regex?: string,
    spentMs?: number,
    onSpent?: (ms: number) => void,
  ): Promise<RegexOutcome<T>> {
    if (this.#stopped) return Promise.resolve({ ok: false, error: `stopped: ${this.#stopped}` });
    this.#stats.requests++;
    return new Promise((resolve) => {
      const job: Job = { request, resolve: resolve as Job["resolve"] };
      if (regex !== undefined) job.regex = regex;
      if (spentMs !== undefined) job.spentMs = spentMs;
      if (onSpent !== undefined) job.onSpent = onSpent;
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Dispatch the next queued request when the worker is free. */
  #pump(): void {
    if (this.#current || this.#stopped) return;
    const job = this.#queue.shift();
    if (!job) {
      // Idle: an unref'd worker never keeps the process alive, and one idle
      // for long is stopped.
      this.#worker?.unref();
      if (this.#worker && this.#idle === undefined) {
        this.#idle = setTimeout(() => {
          this.#idle = undefined;
          if (!this.#current && this.#queue.length === 0) void this.#kill();
        }, this.#idleReleaseMs);
        this.#idle.unref();
      }
      return;
    }
    clearTimeout(this.#idle);
    this.#idle = undefined;
    if (job.request === undefined) {
      // Jobs run one at a time, so nothing is in flight here: the cache can go.
      void this.#kill();
      job.resolve({ ok: true, value: undefined });
      this.#pump();
      return;
    }
    const id = this.#nextId++;
    this.#current = { ...job, id };
    const blobs = this.#blobs;
    if (blobs === undefined || job.request.op === "match") {
      this.#post({ ...job.request, id });
      return;
    }
    // The files it needs that the worker lacks, read before the clock starts.
    this.#given(blobs, job.request).then(
      (given) => {
        if (this.#current?.id === id) this.#post({ ...job.request!, id, given });
      },
      (e: Error) => {
        if (this.#current?.id === id) this.#finish({ ok: false, error: e.message });
      },
    );
  }

  /** Hand the current request to the worker (started when there is none) and time it. */
  #post(request: WorkerRequest): void {
    let worker: Worker;
    try {
      worker = this.#worker ?? this.#spawn();
    } catch (e) {
      this.#finish({
        ok: false,
        error: `could not start the file worker: ${(e as Error).message}`,
      });
      return;
    }
    const spent = this.#current?.spentMs ?? 0;
    Atomics.store(this.#clock!, 1, BigInt(spent));
    // While a request is pending someone awaits it: keep the process alive.
    worker.ref();
    worker.postMessage(request);
    this.#arm(this.#timeoutMs - spent);
  }

  /** What a request over a commit's files must bring: the bytes of each file the worker lacks. */
  async #given(blobs: BlobSource, request: Request): Promise<GivenFiles> {
    const keys =
      request.op === "grep"
        ? request.files === ""
          ? []
          : request.files.split("\0")
        : request.op === "match"
          ? []
          : [request.file];
    const sizes = await blobs.sizes();
    const errors: [string, string][] = [];
    const wanted = new Set<string>();
    for (const key of keys) {
      if (this.#held.has(key) || wanted.has(key)) continue;
      const size = sizes.get(key) ?? 0;
      if (size > this.#config.maxFileBytes) {
        errors.push([
          key,
          `file is ${size} bytes, over the ${this.#config.maxFileBytes}-byte limit`,
        ]);
      } else wanted.add(key);
    }
    const list = [...wanted];
    const read = await blobs.read(list);
    return { keys: list, data: read.data, spans: read.spans, errors };
  }

  #spawn(): Worker {
    const clock = new BigInt64Array(new SharedArrayBuffer(3 * 8));
    const workerData: WorkerConfig = { ...this.#config, clock: clock.buffer as SharedArrayBuffer };
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData,
      // The parent's flags (loaders, inspector) mean nothing to a builtin-only script.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: WORKER_HEAP_MB,
        maxYoungGenerationSizeMb: WORKER_YOUNG_MB,
      },
    });
    worker.on("message", (response: WorkerResponse) => this.#onResponse(worker, response));
    worker.on("error", (error) => this.#onLost(worker, error.message));
    worker.on("exit", (code) => this.#onLost(worker, `exited with code ${code}`));
    this.#worker = worker;
    this.#clock = clock;
    return worker;
  }

  #onResponse(worker: Worker, response: WorkerResponse): void {
    const job = this.#current;
    if (worker !== this.#worker || job?.id !== response.id) return;
    // Added first: a key taken in and let go within the request ends up not held.
    for (const key of response.held?.added ?? []) this.#held.add(key);
    for (const key of response.held?.dropped ?? []) this.#held.delete(key);
    this.#finish(
      response.ok ? { ok: true, value: response.value } : { ok: false, error: response.error },
    );
  }

  /** The worker died on its own (out of memory, a bug): fail the request it held. */
  #onLost(worker: Worker, why: string): void {
    if (worker !== this.#worker) return;
    void this.#kill();
    if (this.#current) this.#finish({ ok: false, error: `file worker stopped: ${why}` });
  }

  #finish(outcome: RegexOutcome<unknown>): void {
    clearTimeout(this.#timer);
    const job = this.#current;
    this.#current = undefined;
    if (this.#clock) job?.onSpent?.(Number(Atomics.load(this.#clock, 1)));
    job?.resolve(outcome);
    this.#pump();
  }

  /**
   * Check the shared clock after `delay` ms. Only regex time counts, and it
   * never exceeds wall time, so the first check comes exactly at the bound
   * and later ones only when file reading took part of the wait.
   */
  #arm(delay: number): void {
    this.#timer = setTimeout(
      () => {
        const clock = this.#clock!;
        const started = Number(Atomics.load(clock, 0));
        const used = Number(Atomics.load(clock, 1)) + (started > 0 ? Date.now() - started : 0);
        if (used < this.#timeoutMs) return this.#arm(this.#timeoutMs - used);
        this.#stats.regexTimeouts++;
        const regex = this.#current?.regex ?? "work";
        void this.#kill();
        this.#finish({
          ok: false,
          error: `regex ${regex} ran over ${this.#timeoutMs} ms and was stopped`,
        });
      },
      Math.max(1, delay),
    );
  }

  #kill(): Promise<unknown> {
    const worker = this.#worker;
    // Keep the dead worker's read count: its cache is gone, the reads happened.
    if (this.#clock) this.#stats.diskReads += Number(Atomics.load(this.#clock, 2));
    this.#worker = undefined;
    this.#clock = undefined;
    this.#held.clear();
    return worker ? worker.terminate() : Promise.resolve();
  }

  /** Refuse further work and fail everything pending with `why`. */
  async #stop(why: string): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = why;
    clearTimeout(this.#timer);
    clearTimeout(this.#idle);
    const terminated = this.#kill();
    const pending = [...(this.#current ? [this.#current] : []), ...this.#queue.splice(0)];
    this.#current = undefined;
    for (const job of pending) job.resolve({ ok: false, error: `stopped: ${why}` });
    await terminated;
  }
}
