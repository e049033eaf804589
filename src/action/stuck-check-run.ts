/**
 * The one sentence for a check run left in progress (a required check then
 * blocks the PR until someone acts): the main step's log and job summary and
 * the post step's own failure say it alike.
 */
export function checkRunNotCompleted(url: string, reason: string): string {
  return `the check run ${url} could not be completed: ${reason} — re-run this job`;
}
