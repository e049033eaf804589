// `npm run docs` (second part): pictures of the demo's check run, its annotations and
// the sticky PR comment as GitHub shows them, for the README. Headless Chromium from
// Debian's packages takes them; fonts come from npm (@fontsource) so the pictures do
// not depend on the fonts a machine happens to have.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { runDemo } from "./example-report.js";
import { githubSurfaces } from "./github-surfaces.js";
import {
  annotationsPage,
  checkRunPage,
  commentPage,
  PAGE_WIDTH,
  type PageAssets,
  type PageOptions,
} from "./screenshot-page.js";

const OUT_DIR = "docs/images";
const WIDTH = PAGE_WIDTH;
/** A README picture should load quickly. */
const MAX_KB = 400;
const require = createRequire(import.meta.url);

/** Chromium from $CHROMIUM or PATH, or a message that says how to get it. */
function chromium(): string {
  const bin = process.env.CHROMIUM ?? "chromium";
  const probe = spawnSync(bin, ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    const why = probe.error ? probe.error.message : `exit ${probe.status}: ${probe.stderr.trim()}`;
    throw new Error(
      `screenshots: cannot run Chromium (${bin}: ${why}). ` +
        "Install Debian's chromium (apt-get install chromium), or set CHROMIUM=/path/to/chromium.",
    );
  }
  return bin;
}

/**
 * A fontsource stylesheet with absolute file URLs, fonts blocking (never a fallback in
 * a picture), and WOFF only: Chromium loads Noto Color Emoji's WOFF2 files but draws
 * nothing from them.
 */
function fontsource(specifier: string): string {
  const path = require.resolve(specifier);
  return readFileSync(path, "utf8")
    .replace(/url\([^)]*\.woff2\) format\('woff2'\),\s*/g, "")
    .replace(/url\(\.\/files\/([^)]+)\)/g, (_, file: string) => {
      return `url(${pathToFileURL(join(dirname(path), "files", file)).href})`;
    })
    .replace(/font-display:\s*swap/g, "font-display: block");
}

function assets(): PageAssets {
  return {
    markdownCss: readFileSync(
      require.resolve("github-markdown-css/github-markdown-light.css"),
      "utf8",
    ),
    fontCss: [
      "@fontsource/noto-sans/400.css",
      "@fontsource/noto-sans/400-italic.css",
      "@fontsource/noto-sans/600.css",
      "@fontsource/noto-sans-mono/400.css",
      "@fontsource/noto-sans-mono/600.css",
      "@fontsource/noto-color-emoji/400.css",
    ]
      .map(fontsource)
      .join("\n"),
  };
}

function run(bin: string, args: string[]): string {
  const r = spawnSync(bin, args, { encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0)
    throw new Error(
      `screenshots: ${bin} ${args.at(-1)} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stderr}`,
    );
  return r.stdout;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Two passes: one to measure the page once its fonts are in, one to capture exactly that. */
function capture(bin: string, html: string, out: string, work: string): void {
  const file = join(work, `${out.replace(/\W/g, "_")}.html`);
  writeFileSync(file, html);
  const common = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--font-render-hinting=none",
    "--no-first-run",
    `--user-data-dir=${join(work, "profile")}`,
    // Lets the fonts load (and the measuring script run) before the dump or the capture.
    "--virtual-time-budget=10000",
  ];
  const url = pathToFileURL(file).href;
  const dom = run(bin, [...common, `--window-size=${WIDTH},800`, "--dump-dom", url]);
  const height = /data-height="(\d+)"/.exec(dom)?.[1];
  if (!height) throw new Error(`screenshots: ${out}: the page never reported its height`);
  // Captured beside the page, then renamed over the committed picture: a capture
  // that dies half-way never leaves a truncated PNG in docs/images/.
  const shot = join(work, `${basename(out)}.tmp.png`);
  run(bin, [...common, `--window-size=${WIDTH},${height}`, `--screenshot=${shot}`, url]);
  const png = readFileSync(shot);
  if (png.length < 8 || !png.subarray(0, 8).equals(PNG_SIGNATURE))
    throw new Error(`screenshots: ${out}: chromium wrote no PNG`);
  copyFileSync(shot, `${out}.tmp`);
  renameSync(`${out}.tmp`, out);
  const kb = Math.round(png.length / 1024);
  console.log(`${out}: ${WIDTH}×${height}, ${kb} kB`);
  if (kb > MAX_KB)
    console.warn(`${out} is over ${MAX_KB} kB: lower maxBodyHeight in scripts/screenshots.ts.`);
}

async function main(): Promise<void> {
  const bin = chromium();
  const surfaces = githubSurfaces(await runDemo());
  const style = assets();
  const opts: PageOptions = { width: WIDTH };
  // The whole report is ~5,000 pixels tall: picture its top (the summary tables) and
  // keep each file under 400 kB.
  const long: PageOptions = { width: WIDTH, maxBodyHeight: 2000 };
  const work = mkdtempSync(join(tmpdir(), "cg-shots-"));
  try {
    mkdirSync(OUT_DIR, { recursive: true });
    capture(bin, checkRunPage(surfaces.checkRun, style, long), `${OUT_DIR}/check-run.png`, work);
    const name = surfaces.checkRun.name;
    const list = annotationsPage(surfaces.annotations, name, style, opts);
    capture(bin, list, `${OUT_DIR}/annotations.png`, work);
    capture(bin, commentPage(surfaces.comment, style, long), `${OUT_DIR}/comment.png`, work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (e) {
  // What failed and how to fix it, not a stack trace.
  console.error((e as Error).message);
  process.exitCode = 1;
}
