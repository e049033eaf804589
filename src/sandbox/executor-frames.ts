/**
 * The lane executor's framed pipe protocol (src/sandbox/lane-executor.c),
 * one implementation for both ends that speak it (host-lanes.ts inside the
 * sandbox, unsandboxed.ts without one): a frame is a one-byte type, a
 * little-endian u32 length, then that many bytes.
 */

/** One frame: `type` and its payload, the fields each ended by NUL (none: an empty payload). */
export function encodeFrame(type: string, fields: readonly string[] = []): Buffer {
  const payload = Buffer.from(fields.map((f) => `${f}\0`).join(""), "utf8");
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeUInt32LE(payload.length, 1);
  return payload.length === 0 ? head : Buffer.concat([head, payload]);
}

/** Reassembles frames from the executor's output chunks, handing each whole one to `onFrame`. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly onFrame: (type: string, data: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    while (this.buf.length >= 5) {
      const len = this.buf.readUInt32LE(1);
      if (this.buf.length < 5 + len) return;
      const type = String.fromCharCode(this.buf[0]!);
      const data = this.buf.subarray(5, 5 + len);
      this.buf = this.buf.subarray(5 + len);
      this.onFrame(type, data);
    }
  }
}
