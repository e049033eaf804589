import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { drained } from "../src/cli/io.js";

describe("drained", () => {
  it("waits until a full stream takes more, and not at all otherwise", async () => {
    const taken: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _enc, callback) {
        taken.push(chunk.toString());
        release = callback;
      },
    });
    await drained(slow);
    expect(slow.write("0123456789")).toBe(false);
    let done = false;
    const wait = drained(slow).then(() => {
      done = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    release?.();
    await wait;
    expect(done).toBe(true);
    expect(taken).toEqual(["0123456789"]);
    expect(slow.listenerCount("drain")).toBe(0);
  });

  it("stops waiting when the stream fails", async () => {
    const broken = new Writable({ highWaterMark: 1, write: () => {} });
    broken.on("error", () => {});
    broken.write("xx");
    const wait = drained(broken);
    broken.destroy(new Error("EPIPE"));
    await wait;
    expect(broken.listenerCount("close")).toBe(0);
  });
});
