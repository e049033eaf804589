import { availableParallelism } from "node:os";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { Contract, ContractKind } from "../model.js";
import { loadContractHere } from "./contract.js";

/**
 * Loading many contracts in parallel: worker threads read, parse and
 * drift-check them, the main thread too, and every contract comes back
 * exactly as `loadContractHere` builds it (structured clone preserves plain
 * data: same keys, same order, same values). A worker is started from the
 * entry module, which is what works from the single-file ncc bundle; see
 * `serveLoadWorkers`. Without an entry (tests, library use) or for small
 * batches everything stays in this thread.
 */

/** Fewer contracts than this load in this thread: a worker's start-up costs more than it saves. */
export const MIN_POOL_BATCH = 64;

/** Contracts per message: small enough to balance the threads, large enough to amortise a round trip. */
const CHUNK = 8;

/** Chunks a worker holds at once, so it never waits for the main thread between two. */
const CHUNKS_IN_FLIGHT = 2;

const WORKER_MARK = "contract-gate:load-worker";

export interface LoadJob {
  root: string;
  path: string;
  kind: ContractKind;
}

type ToWorker = { id: number; jobs: LoadJob[] };
/**
 * `results` is the JSON of one `Contract | null` per job: `JSON.parse` takes
 * in a chunk several times faster than structured-clone deserialisation, on
 * the main thread where time counts. `null` means the main thread must load
 * that contract itself: loading threw in the worker (so it throws the same
 * here), or the contract holds a value JSON would not carry exactly.
 */
type FromWorker = { ready: true } | { id: number; results: string };

let entry: URL | undefined;

/**
 * Call first in an entry module, with the module's own `import.meta.url`:
 *
 *     await serveLoadWorkers(import.meta.url);
 *
 * In the main thread this records the entry, so large batches of
 * `loadContract` calls use worker threads started from it, and returns at
 * once. In such a worker it answers load requests and never settles, so the
 * rest of the entry module (the CLI itself) never runs there.
 */
export function serveLoadWorkers(entryUrl: string | URL): Promise<void> {
  if (isMainThread || !isLoadWorker(workerData) || parentPort === null) {
    entry = new URL(entryUrl);
    return Promise.resolve();
  }
  const port = parentPort;
  port.on("message", (message: ToWorker) => {
    const results = message.jobs.map((job) => {
      try {
        const contract = loadContractHere(job.root, job.path, job.kind);
        return isJsonExact(contract) ? contract : null;
      } catch {
        return null;
      }
    });
    port.postMessage({ id: message.id, results: JSON.stringify(results) } satisfies FromWorker);
  });
  port.postMessage({ ready: true } satisfies FromWorker);
  return new Promise(() => {});
}

/**
 * Whether `JSON.parse(JSON.stringify(value))` is deep-equal to `value`: only
 * plain objects, dense arrays, strings, booleans, null and finite numbers
 * other than -0 (JSON has no undefined, NaN, Infinity or -0). Contracts are
 * plain data built by this code, so own enumerable data keys are all there is.
 */
export function isJsonExact(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isJsonExact(value[i])) return false;
        }
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key of Object.keys(value)) {
        if (!isJsonExact((value as Record<string, unknown>)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function isLoadWorker(data: unknown): boolean {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as Record<string, unknown>)[WORKER_MARK] === true
  );
}

/** Whether an entry module has enabled worker threads for this process. */
export function poolEnabled(): boolean {
  return entry !== undefined;
}

/** For tests: use (or, with undefined, stop using) workers started from `url`. */
export function setLoadWorkerEntry(url: URL | undefined): void {
  entry = url;
}

interface Pending {
  job: LoadJob;
  resolve: (contract: Contract) => void;
  reject: (error: unknown) => void;
}

let waiting: Pending[] = [];

/**
 * Load through the pool. Calls made in one turn of the event loop (as
 * `Promise.all(paths.map(loadContract))` makes them) form one batch, which
 * is split across threads when it is large enough.
 */
export function loadPooled(job: LoadJob): Promise<Contract> {
  return new Promise((resolve, reject) => {
    if (waiting.length === 0) setImmediate(flush);
    waiting.push({ job, resolve, reject });
  });
}

function flush(): void {
  const batch = waiting;
  waiting = [];
  if (entry === undefined || batch.length < MIN_POOL_BATCH) {
    for (const p of batch) settleHere(p);
    return;
  }
  void runBatch(batch, entry);
}

function settleHere(p: Pending): void {
  try {
    p.resolve(loadContractHere(p.job.root, p.job.path, p.job.kind));
  } catch (e) {
    p.reject(e);
  }
}

/**
 * One batch: `availableParallelism() - 1` workers and the main thread take
 * chunks from one queue until it is empty. A worker that fails hands its
 * chunks back to the main thread, so a batch always completes; one that is
 * still starting when the queue runs dry is stopped unused.
 */
async function runBatch(batch: Pending[], url: URL): Promise<void> {
  let next = 0;
  const take = (): Pending[] => {
    const chunk = batch.slice(next, next + CHUNK);
    next += chunk.length;
    return chunk;
  };
  const redo: Pending[] = [];
  /** Each live worker with its chunks in flight, by message id. */
  const workers = new Map<Worker, Map<number, Pending[]>>();
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const retire = (worker: Worker) => {
    const inFlight = workers.get(worker);
    if (inFlight === undefined) return;
    workers.delete(worker);
    for (const jobs of inFlight.values()) redo.push(...jobs);
    void worker.terminate();
    poke();
  };

  const count = Math.min(availableParallelism() - 1, Math.floor(batch.length / MIN_POOL_BATCH));
  for (let w = 0; w < count; w++) {
    let worker: Worker;
    try {
      worker = new Worker(url, { workerData: { [WORKER_MARK]: true } });
    } catch {
      break;
    }
    const inFlight = new Map<number, Pending[]>();
    workers.set(worker, inFlight);
    let ids = 0;
    const send = () => {
      const jobs = take();
      if (jobs.length === 0) return;
      const id = ids++;
      inFlight.set(id, jobs);
      worker.postMessage({ id, jobs: jobs.map((p) => p.job) } satisfies ToWorker);
    };
    worker.on("message", (message: FromWorker) => {
      if (!workers.has(worker)) return;
      if ("ready" in message) {
        for (let k = 0; k < CHUNKS_IN_FLIGHT; k++) send();
      } else {
        const jobs = inFlight.get(message.id) ?? [];
        inFlight.delete(message.id);
        const results = JSON.parse(message.results) as (Contract | null)[];
        jobs.forEach((p, i) => {
          const contract = results[i];
          if (contract) p.resolve(contract);
          else settleHere(p);
        });
        send();
      }
      if (inFlight.size === 0) retire(worker);
      poke();
    });
    worker.on("error", () => retire(worker));
    worker.on("messageerror", () => retire(worker));
    worker.on("exit", () => retire(worker));
  }

  // The main thread works through the queue too, yielding between chunks so
  // replies are taken in and workers are kept supplied.
  for (;;) {
    const chunk = redo.length > 0 ? redo.splice(0, CHUNK) : take();
    if (chunk.length > 0) {
      for (const p of chunk) settleHere(p);
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    for (const [worker, inFlight] of workers) if (inFlight.size === 0) retire(worker);
    if (workers.size === 0 && redo.length === 0) return;
    if (redo.length > 0) continue;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
}
