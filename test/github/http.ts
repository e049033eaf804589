/** Raw HTTP against the stand-in (no Octokit), for tests of the stand-in itself. */
import { ACTIONS_TOKEN, type StandIn } from "./standin.js";

export interface RawResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON under test, inspected field by field.
  body: any;
}

export async function raw(
  standIn: StandIn,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = {
    "user-agent": "contract-gate-tests",
    accept: "application/vnd.github+json",
    ...opts.headers,
  };
  const token = opts.token === undefined ? ACTIONS_TOKEN : opts.token;
  if (token) headers.authorization = `token ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] = "application/json; charset=utf-8";
  }
  const url = path.startsWith("http") ? path : `${standIn.url}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed };
}

/** `rel` → URL from a Link header. */
export function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? "").matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) out[m[2]!] = m[1]!;
  return out;
}
