// Console analytics test support: pages fetched with a session cookie, same-origin form posts, daily rollups
// written as the metrics service stores them, and an HTML table read back as the text of its cells.
import { env, SELF } from "cloudflare:test";
import { localDay } from "../../src/lib/time-zones";
import { BASE } from "./support";

export async function form(path: string, cookie: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}
export const page = (path: string, cookie?: string) =>
  SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

export const today = (zone = "America/Sao_Paulo") => localDay(new Date(), zone);

/** Daily rollup rows (integer cents or counts), as the metrics service stores them. */
export async function rollups(t: { organizationId: string; workspaceId: string }, rows: [metric: string, day: string, value: number][]) {
  await env.DB.batch(
    rows.map(([metric, day, value]) =>
      env.DB.prepare("INSERT INTO metric_daily (organization_id, workspace_id, day, metric, value) VALUES (?, ?, ?, ?, ?)").bind(
        t.organizationId,
        t.workspaceId,
        day,
        metric,
        value,
      ),
    ),
  );
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

/** The body rows of the table marked `attr` (e.g. `data-table="top-plans"`), each as its cells' text. */
export function tableRows(html: string, attr: string): string[][] {
  const table = new RegExp(`<table[^>]*${attr}[^>]*>(.*?)</table>`, "s").exec(html)?.[1];
  if (table === undefined) return [];
  const body = /<tbody>(.*?)<\/tbody>/s.exec(table)?.[1] ?? "";
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((r) =>
    [...r[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((c) => text(c[1]!)),
  );
}

/** The hrefs of the links inside the element that carries `attr`'s opening tag up to `until`. */
export function linksIn(html: string, attr: string, until = "</div>"): string[] {
  const start = html.indexOf(attr);
  if (start < 0) return [];
  const chunk = html.slice(start, html.indexOf(until, start));
  return [...chunk.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
}
