/**
 * A file a change touches, as both GitHub's PR files and `git diff
 * --name-status` report it: the one shape every computation of "what the PR
 * changed" hands on, so the pure comparison needs neither git nor the API.
 */
export type FileStatus =
  | "added"
  | "modified"
  | "renamed"
  | "copied"
  | "removed"
  | "changed"
  | "unchanged";

export interface ChangedFile {
  path: string;
  status: FileStatus;
  /** For `renamed` (and `copied`): the path before. */
  previousPath?: string;
}
