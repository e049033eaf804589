/**
 * The README's screenshot pages (scripts/screenshot-page.ts): markdown in, HTML
 * page out. No browser and no pixels: `npm run docs` takes the pictures.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { githubSurfaces } from "../scripts/github-surfaces.js";
import {
  annotationCounts,
  annotationsPage,
  checkRunPage,
  commentPage,
  PAGE_WIDTH,
  type PageAssets,
  renderGfm,
} from "../scripts/screenshot-page.js";
import type { Annotation } from "../src/github/types.js";
import { commentMarker } from "../src/report/github-text.js";
import { summariseRun } from "../src/verdict.js";
import { sampleOutcomes } from "./helpers/outcomes.js";

const require = createRequire(import.meta.url);
const assets: PageAssets = {
  markdownCss: readFileSync(
    require.resolve("github-markdown-css/github-markdown-light.css"),
    "utf8",
  ),
  fontCss: "@font-face { font-family: 'Noto Sans'; src: url(file:///fonts/noto.woff); }",
};
const opts = { width: PAGE_WIDTH };

/** The sample outcomes, with contract text that would be markup if anything let it through. */
function hostileRun() {
  const contracts = sampleOutcomes();
  const criterion = contracts[0]!.criteria[1]!;
  criterion.title = "<script>alert(1)</script> <img src=x onerror=alert(2)>";
  criterion.reason = "exit 7 <b>bold</b>";
  return { summary: summariseRun(contracts), contracts };
}

/** The page's text outside our own <style> and <script> elements. */
function markup(page: string): string {
  return page.replace(/<style>[\s\S]*?<\/style>/g, "").replace(/<script>[\s\S]*?<\/script>/g, "");
}

describe("renderGfm", () => {
  it("renders GitHub-flavoured markdown: tables, strikethrough, autolinks", () => {
    const html = renderGfm("| a | b |\n|---|---|\n| 1 | ~~2~~ |\n\nsee https://example.com\n");
    expect(html).toContain("<table>");
    expect(html).toContain("<th>a</th>");
    expect(html).toContain("<del>2</del>");
    expect(html).toContain('<a href="https://example.com">https://example.com</a>');
  });

  it("treats raw HTML as GitHub does: comments stay invisible, <script> is disarmed", () => {
    expect(renderGfm("<!-- marker -->\ntext\n")).toContain("<!-- marker -->");
    const html = renderGfm("<script>alert(1)</script>\n");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script>");
  });
});

describe("check run page", () => {
  const surfaces = githubSurfaces(hostileRun());
  const page = checkRunPage(surfaces.checkRun, assets, opts);

  it("shows the check name, the conclusion, the title, the summary's headings and tables", () => {
    expect(page).toContain("<strong>Contract Gate</strong><span>failed</span>");
    expect(page).toContain(`<h2 class="output-title">${surfaces.checkRun.title}</h2>`);
    expect(page).toContain("<h2>❌ Contract Gate: failure</h2>");
    expect(page).toContain("<h3><code>.claude/tasks/contracts/c.md</code> — FAIL</h3>");
    expect(page).toContain("<th>criterion</th>");
    expect(page).toContain("<td>❌ unmet</td>");
    // The text (details) follows the summary, as on the Checks tab.
    expect(page).toContain("<h3>Details</h3>");
    expect(page.indexOf("<h3>Details</h3>")).toBeGreaterThan(page.indexOf("<th>criterion</th>"));
  });

  it("escapes contract text: it reads as text, never as markup", () => {
    const html = markup(page);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt;");
    expect(html).toContain("exit 7 &lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toMatch(/<script|<img|<b>/);
  });

  it("inlines github-markdown-css and the fonts, and renders inside .markdown-body", () => {
    expect(page).toContain(assets.markdownCss);
    expect(assets.markdownCss).toContain(".markdown-body table");
    expect(page).toContain(assets.fontCss);
    expect(page).toContain('<div class="markdown-body"><h2>');
  });

  it("cuts a long body only when asked", () => {
    expect(page).not.toContain(".clip { max-height");
    expect(checkRunPage(surfaces.checkRun, assets, { width: 960, maxBodyHeight: 900 })).toContain(
      ".clip { max-height: 900px; }",
    );
  });
});

describe("annotations page", () => {
  const surfaces = githubSurfaces(hostileRun());
  const page = annotationsPage(surfaces.annotations, "Contract Gate", assets, opts);

  it("lists every annotation: level icon, path#Lline, title, message", () => {
    expect(surfaces.annotations.length).toBeGreaterThan(3);
    expect(page.match(/<li class="annotation">/g)).toHaveLength(surfaces.annotations.length);
    for (const a of surfaces.annotations) {
      expect(page).toContain(`<a href="#">${a.path}#L${a.start_line}</a>`);
    }
    expect(page).toContain('<div class="annotation-title">Invalid contract: unknown-key</div>');
    expect(page).toContain(
      "&quot;must_contian&quot; is not a known key\nFix: did you mean &quot;must_contain&quot;?",
    );
    expect(page).toContain("octicon-x-circle-fill");
    expect(page).toContain("octicon-info");
    expect(page).toContain(annotationCounts(surfaces.annotations));
  });

  it("escapes contract text in titles and messages", () => {
    const html = markup(page);
    expect(html).toContain("unmet: 2 &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/<script|<img|<b>/);
  });

  it("counts as GitHub does", () => {
    const a = (annotation_level: Annotation["annotation_level"]): Annotation => ({
      path: "p",
      start_line: 1,
      end_line: 1,
      annotation_level,
      message: "m",
    });
    expect(annotationCounts([a("failure"), a("notice"), a("failure")])).toBe(
      "2 errors and 1 notice",
    );
    expect(annotationCounts([a("warning"), a("failure"), a("notice")])).toBe(
      "1 error, 1 warning and 1 notice",
    );
    expect(annotationCounts([a("warning")])).toBe("1 warning");
    expect(annotationCounts([])).toBe("No annotations");
  });
});

describe("comment page", () => {
  const surfaces = githubSurfaces(hostileRun());
  const page = commentPage(surfaces.comment, assets, opts);

  it("is the sticky comment the action posts, in a comment box by the github-actions bot", () => {
    expect(surfaces.comment.startsWith(`${commentMarker("Contract Gate")}\n`)).toBe(true);
    expect(page).toContain('<strong>github-actions</strong><span class="bot-label">bot</span>');
    // The marker stays an HTML comment: invisible, as on GitHub.
    expect(page).toContain("<!-- contract-gate:Contract Gate -->");
    expect(page).toContain("<h2>❌ Contract Gate: failure</h2>");
    expect(page).toContain('<a href="https://github.com/OWNER/REPO/runs/1">Check run</a>');
    expect(markup(page)).not.toMatch(/<script|<img|<b>/);
  });
});

describe("docs/images", () => {
  it("holds the three pictures the README links, as PNGs under 400 kB (`npm run docs`)", () => {
    for (const name of ["check-run", "annotations", "comment"]) {
      const png = readFileSync(`docs/images/${name}.png`);
      expect(png.subarray(0, 8)).toEqual(Buffer.from("89504e470d0a1a0a", "hex"));
      // IHDR: the width the pages are laid out for.
      expect(png.readUInt32BE(16)).toBe(PAGE_WIDTH);
      expect(png.length).toBeLessThan(400 * 1024);
    }
  });
});
