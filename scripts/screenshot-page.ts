// Pure page builders for the README's screenshots: each surface the action posts,
// rendered as GitHub renders it (GFM, github-markdown-css) inside a small imitation
// of the GitHub frame around it. No I/O: the stylesheets come in as text.
import octicons from "@primer/octicons";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import type { Annotation } from "../src/github/types.js";
import type { CheckRunSurface } from "./github-surfaces.js";

/** Stylesheets inlined into every page: github-markdown-css (light) and the @font-face rules. */
export interface PageAssets {
  markdownCss: string;
  fontCss: string;
}

/** The width the pictures are taken at: about the width of GitHub's check run and comment columns. */
export const PAGE_WIDTH = 960;

export interface PageOptions {
  /** Page width in CSS pixels: the window the screenshot is taken in. */
  width: number;
  /** Cut the frame's body at this height (fading out), for surfaces too long to picture whole. */
  maxBodyHeight?: number;
}

/**
 * GitHub-flavoured markdown to HTML. Raw HTML passes as it does on GitHub
 * (GFM's tag filter disarms <script>, <style> and the like; comments such as
 * the sticky comment's marker stay invisible); the report renderers escape
 * every piece of contract text before it gets here.
 */
export function renderGfm(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

/** For the frame's own text (names, paths, annotation messages): never markup. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

type Level = Annotation["annotation_level"] | "success" | "neutral";

/** GitHub's icon and colour for each annotation level and check conclusion. */
const ICONS: Record<Level, { name: keyof typeof octicons; color: string }> = {
  failure: { name: "x-circle-fill", color: "#d1242f" },
  warning: { name: "alert-fill", color: "#9a6700" },
  notice: { name: "info", color: "#0969da" },
  success: { name: "check-circle-fill", color: "#1a7f37" },
  neutral: { name: "skip", color: "#59636e" },
};

function icon(level: Level, size = 16): string {
  const { name, color } = ICONS[level];
  return `<span class="icon" style="color:${color}">${octicons[name].toSVG({ width: size, height: size })}</span>`;
}

/** The frame around the surfaces: Primer's light colours, GitHub's spacing. */
const FRAME_CSS = `
  html, body { margin: 0; background: #ffffff; }
  body { padding: 16px; color: #1f2328; }
  body, .markdown-body { font-family: "Noto Sans", "Noto Color Emoji", sans-serif; }
  .markdown-body code, .markdown-body pre, .markdown-body tt, .markdown-body samp,
  .markdown-body kbd, .mono { font-family: "Noto Sans Mono", "Noto Color Emoji", monospace; }
  .frame { border: 1px solid #d0d7de; border-radius: 6px; overflow: hidden; font-size: 14px; line-height: 1.5; }
  .frame-head { display: flex; align-items: center; gap: 8px; padding: 8px 16px; background: #f6f8fa;
    border-bottom: 1px solid #d0d7de; color: #59636e; }
  .frame-head strong { color: #1f2328; font-weight: 600; }
  .frame-body { padding: 16px 24px; position: relative; }
  .icon { display: inline-flex; flex: none; }
  .icon svg, .frame-head svg { fill: currentColor; }
  .spacer { flex: 1; }
  .output-title { margin: 0 0 16px; font-size: 20px; font-weight: 600; line-height: 1.25; color: #1f2328; }
  .separator { border: 0; border-top: 1px solid #d0d7de; margin: 24px 0; }
  .bot-label { border: 1px solid #d0d7de; border-radius: 2em; padding: 0 7px; font-size: 12px;
    font-weight: 500; line-height: 18px; color: #59636e; }
  .annotations { list-style: none; margin: 0; padding: 0; }
  .annotation { display: flex; gap: 8px; padding: 12px 16px; border-top: 1px solid #d0d7de; }
  .annotation:first-child { border-top: 0; }
  .annotation .icon { margin-top: 2px; }
  .annotation-body { min-width: 0; flex: 1; }
  .annotation-where a { color: #0969da; text-decoration: none; }
  .annotation-title { font-weight: 600; color: #1f2328; }
  .annotation-message { margin: 4px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px;
    color: #1f2328; }
  .annotation details { margin-top: 4px; color: #59636e; font-size: 12px; }
  .clip { position: relative; overflow: hidden; }
  .clipped::after { content: ""; position: absolute; left: 0; right: 0; bottom: 0; height: 160px;
    background: linear-gradient(rgba(255, 255, 255, 0), #ffffff); }
`;

/**
 * Once the fonts are in, record the height the window needs (the frame's bottom
 * plus the page's padding) for the capture pass to read from --dump-dom.
 */
const MEASURE = `
  document.fonts.ready.then(() => {
    const clip = document.querySelector(".clip");
    if (clip && clip.scrollHeight > clip.clientHeight) clip.classList.add("clipped");
    const frame = document.querySelector(".frame");
    document.body.dataset.height = String(Math.ceil(frame.getBoundingClientRect().bottom) + 16);
  });
`;

function page(title: string, frame: string, assets: PageAssets, opts: PageOptions): string {
  const clip =
    opts.maxBodyHeight === undefined ? "" : `.clip { max-height: ${opts.maxBodyHeight}px; }`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=${opts.width}">
<title>${escapeHtml(title)}</title>
<style>${assets.fontCss}</style>
<style>${assets.markdownCss}</style>
<style>${FRAME_CSS}${clip}</style>
</head>
<body>
${frame}
<script>${MEASURE}</script>
</body>
</html>
`;
}

const CONCLUSION_WORD: Record<CheckRunSurface["conclusion"], string> = {
  failure: "failed",
  success: "succeeded",
  neutral: "completed as neutral",
};

/** The check run as the pull request's Checks tab shows it: name, conclusion, title, summary, text. */
export function checkRunPage(run: CheckRunSurface, assets: PageAssets, opts: PageOptions): string {
  const text = run.text.trim()
    ? `<hr class="separator"><div class="markdown-body">${renderGfm(run.text)}</div>`
    : "";
  const frame = `<div class="frame">
<div class="frame-head">${icon(run.conclusion, 20)}<strong>${escapeHtml(run.name)}</strong><span>${CONCLUSION_WORD[run.conclusion]}</span></div>
<div class="frame-body clip">
<h2 class="output-title">${escapeHtml(run.title)}</h2>
<div class="markdown-body">${renderGfm(run.summary)}</div>
${text}
</div>
</div>`;
  return page(`${run.name}: check run`, frame, assets, opts);
}

/** GitHub's count line: `12 errors, 1 warning and 2 notices`. */
export function annotationCounts(annotations: readonly Annotation[]): string {
  const words = { failure: "error", warning: "warning", notice: "notice" } as const;
  const parts = (["failure", "warning", "notice"] as const)
    .map(
      (level) => [annotations.filter((a) => a.annotation_level === level).length, level] as const,
    )
    .filter(([n]) => n > 0)
    .map(([n, level]) => `${n} ${words[level]}${n === 1 ? "" : "s"}`);
  if (parts.length === 0) return "No annotations";
  const last = parts.pop()!;
  return parts.length ? `${parts.join(", ")} and ${last}` : last;
}

function annotationItem(a: Annotation, checkName: string): string {
  const raw = a.raw_details
    ? `<details><summary>Raw output</summary><pre class="annotation-message mono">${escapeHtml(a.raw_details)}</pre></details>`
    : "";
  return `<li class="annotation">${icon(a.annotation_level)}<div class="annotation-body">
<div class="annotation-where"><strong>${escapeHtml(checkName)}:</strong> <a href="#">${escapeHtml(`${a.path}#L${a.start_line}`)}</a></div>
${a.title ? `<div class="annotation-title">${escapeHtml(a.title)}</div>` : ""}
<pre class="annotation-message mono">${escapeHtml(a.message)}</pre>
${raw}
</div></li>`;
}

/** The check run's annotations box: level icon, `path#Lline`, title, message. */
export function annotationsPage(
  annotations: readonly Annotation[],
  checkName: string,
  assets: PageAssets,
  opts: PageOptions,
): string {
  const frame = `<div class="frame">
<div class="frame-head"><strong>Annotations</strong><span>${annotationCounts(annotations)}</span></div>
<ul class="annotations clip">
${annotations.map((a) => annotationItem(a, checkName)).join("\n")}
</ul>
</div>`;
  return page(`${checkName}: annotations`, frame, assets, opts);
}

/** The sticky PR comment: GitHub's comment box, written by the github-actions bot. */
export function commentPage(body: string, assets: PageAssets, opts: PageOptions): string {
  const frame = `<div class="frame">
<div class="frame-head"><strong>github-actions</strong><span class="bot-label">bot</span><span>commented</span><span class="spacer"></span>${octicons["kebab-horizontal"].toSVG({ width: 16, height: 16 })}</div>
<div class="frame-body clip"><div class="markdown-body">${renderGfm(body)}</div></div>
</div>`;
  return page("github-actions commented", frame, assets, opts);
}
