/** Messages between the file service (main thread) and its worker. */

export type WorkerRequest =
  /** `files`: the paths joined with NUL, which no path holds; one string clones far faster than thousands. */
  (
    | { id: number; op: "grep"; files: string; source: string; limit: number }
    | { id: number; op: "contains"; file: string; needle: string }
    | { id: number; op: "line"; file: string; line: number }
    | { id: number; op: "match"; text: string; source: string; flags: string }
  ) & { given?: GivenFiles };

/**
 * Reading a commit (`WorkerConfig.given`), the files a request needs that
 * the worker does not hold: their bytes in one buffer, or why there are none.
 */
export interface GivenFiles {
  keys: string[];
  data: Uint8Array;
  spans: [number, number][];
  /** Files not read (over the size limit), with the error a read would have given. */
  errors: [string, string][];
}

/** Every request is answered exactly once. */
export type WorkerResponse = { id: number } & (
  | { ok: true; value: unknown }
  | { ok: false; error: string }
) & {
    /** Reading a commit: the keys the worker's cache took in and let go during the request. */
    held?: { added: string[]; dropped: string[] };
  };

export interface WorkerConfig {
  /**
   * Three BigInt64 slots shared with the main thread: [0] when the current
   * regex work started (epoch ms, 0 when none is running), [1] milliseconds
   * of regex work done for the current request, [2] files read from disk.
   * The deadline counts only regex time, so a slow disk is never mistaken
   * for a runaway pattern; shared counters survive the worker's termination.
   */
  clock: SharedArrayBuffer;
  /** Bytes of decoded file text kept between requests. */
  cacheBytes: number;
  /** Files larger than this are refused rather than read into memory. */
  maxFileBytes: number;
  /**
   * Files come with the requests (a commit's blobs), never from disk; the
   * worker says what its cache holds so the service sends each file once.
   */
  given: boolean;
}
