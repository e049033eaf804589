/**
 * Byte-level collectors for a child's output. They work on raw chunks so
 * memory stays bounded however much a command prints, and so a literal marker
 * is found even when a pipe read splits it (or a multi-byte character) in two.
 */

/** Keeps the first `limit` bytes; remembers whether anything was dropped. */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  exceeded = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (chunk.length > room) {
      this.exceeded = true;
      if (room > 0) this.keep(chunk.subarray(0, room));
      return;
    }
    this.keep(chunk);
  }

  text(): string {
    return Buffer.concat(this.chunks, this.size).toString("utf8");
  }

  private keep(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }
}

/** Keeps only the last `maxBytes`, enough to show the last lines of any output. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private truncated = false;

  constructor(private readonly maxBytes = 8 * 1024) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.length >= this.maxBytes) {
      this.size -= this.chunks.shift()!.length;
      this.truncated = true;
    }
  }

  /** The last `count` lines, without trailing blank lines, joined with `\n`. */
  lines(count: number): string {
    let bytes = Buffer.concat(this.chunks, this.size);
    let cut = this.truncated;
    if (bytes.length > this.maxBytes) {
      bytes = bytes.subarray(bytes.length - this.maxBytes);
      cut = true;
    }
    const lines = bytes.toString("utf8").split("\n");
    // A cut-off first line is a fragment; drop it unless it is all there is.
    if (cut && lines.length > 1) lines.shift();
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
    return lines
      .slice(-Math.max(0, count))
      .map((l) => l.replace(/\r$/, ""))
      .join("\n");
  }
}

/**
 * Streaming literal search: carries the last `marker.length - 1` bytes between
 * chunks, so a marker split across reads is still found, with no output cap.
 * An empty marker counts as found (callers refuse empty markers earlier).
 */
export class MarkerScanner {
  private readonly needle: Buffer;
  private carry: Buffer = Buffer.alloc(0);
  found: boolean;

  constructor(marker: string) {
    this.needle = Buffer.from(marker, "utf8");
    this.found = this.needle.length === 0;
  }

  push(chunk: Buffer): void {
    if (this.found) return;
    const hay = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    if (hay.indexOf(this.needle) !== -1) {
      this.found = true;
      this.carry = Buffer.alloc(0);
      return;
    }
    const keep = Math.min(this.needle.length - 1, hay.length);
    // Copy, so a large chunk is not retained through a small view of it.
    this.carry = Buffer.from(hay.subarray(hay.length - keep));
  }
}
