import { CappedBuffer, MarkerScanner, TailBuffer } from "./output.js";

export interface CollectorOptions {
  limitBytes: number;
  combined: boolean;
  literalMarker?: string;
  tailLines: number;
}

/** What a run captured of its child's output. */
export interface CapturedOutput {
  /** The first `stdoutLimitBytes` of stdout, decoded as UTF-8. */
  stdout: string;
  stdoutExceeded: boolean;
  /** stdout and stderr in arrival order, capped like stdout; `""` unless requested. */
  combined: string;
  combinedExceeded: boolean;
  /** Whether `literalMarker` occurred in stdout or in stderr; `false` when none was given. */
  markerFound: boolean;
  stdoutTail: string;
  stderrTail: string;
  /** The last lines of stdout and stderr in arrival order. */
  combinedTail: string;
}

/**
 * Routes chunks from both pipes into the captures a run asked for. The marker
 * is scanned per stream rather than in the interleaved output: the order in
 * which two pipes are read is not deterministic, and interleaving must not be
 * able to split (or forge) a marker one stream wrote whole.
 */
export class OutputCollector {
  private readonly stdoutCap: CappedBuffer;
  private readonly combinedCap: CappedBuffer | undefined;
  private readonly markers: MarkerScanner[];
  private readonly tails = { out: new TailBuffer(), err: new TailBuffer(), all: new TailBuffer() };

  constructor(private readonly opts: CollectorOptions) {
    this.stdoutCap = new CappedBuffer(opts.limitBytes);
    this.combinedCap = opts.combined ? new CappedBuffer(opts.limitBytes) : undefined;
    const marker = opts.literalMarker;
    this.markers =
      marker === undefined ? [] : [new MarkerScanner(marker), new MarkerScanner(marker)];
  }

  stdout(chunk: Buffer): void {
    this.stdoutCap.push(chunk);
    this.markers[0]?.push(chunk);
    this.tails.out.push(chunk);
    this.both(chunk);
  }

  stderr(chunk: Buffer): void {
    this.markers[1]?.push(chunk);
    this.tails.err.push(chunk);
    this.both(chunk);
  }

  snapshot(): CapturedOutput {
    const n = this.opts.tailLines;
    return {
      stdout: this.stdoutCap.text(),
      stdoutExceeded: this.stdoutCap.exceeded,
      combined: this.combinedCap?.text() ?? "",
      combinedExceeded: this.combinedCap?.exceeded ?? false,
      markerFound: this.markers.some((m) => m.found),
      stdoutTail: this.tails.out.lines(n),
      stderrTail: this.tails.err.lines(n),
      combinedTail: this.tails.all.lines(n),
    };
  }

  private both(chunk: Buffer): void {
    this.combinedCap?.push(chunk);
    this.tails.all.push(chunk);
  }
}
