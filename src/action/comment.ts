import type { GitHubApi } from "../github/types.js";
import { commentMarker } from "../report/github-text.js";
import type { ActionSettings } from "./inputs.js";

/**
 * The one sticky PR comment, found by its marker: created or updated, or
 * (`on-failure`, nothing blocking) only an existing one updated. Returns its
 * URL, "" when none was posted. The body starts with the marker
 * (src/report/github-surfaces.ts writes both).
 */
export async function stickyComment(
  api: GitHubApi,
  settings: Pick<ActionSettings, "checkName" | "comment">,
  issueNumber: number,
  headSha: string,
  report: { blocking: boolean; body: () => string },
): Promise<string> {
  const marker = commentMarker(settings.checkName);
  if (settings.comment === "on-failure" && !report.blocking) {
    // Only touch an existing (red) comment, to say it turned green: never leave a stale red comment.
    const existing = await api.findStickyComment(issueNumber, marker);
    if (!existing) return "";
  }
  const result = await api.upsertStickyComment({
    issueNumber,
    marker,
    headSha,
    body: report.body(),
  });
  return result.url ?? "";
}
