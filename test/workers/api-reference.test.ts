// The API reference page (/api/v1/docs): a shell that loads Swagger UI and its start-up script from
// the worker's own static assets, under a CSP that admits only this origin.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE } from "./support";

describe("GET /api/v1/docs", () => {
  it("serves the reference shell with a CSP admitting only 'self' and no inline script or style", async () => {
    const res = await SELF.fetch(`${BASE}/api/v1/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await res.text();
    expect(html).toContain('data-openapi-url="/api/v1/openapi.json"');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => /src="([^"]+)"/.exec(m[1] ?? "")?.[1])).toEqual([
      "/vendor/swagger-ui-dist/swagger-ui-bundle.js",
      "/docs/init.js",
    ]);
    expect(scripts.every((m) => m[2]?.trim() === "")).toBe(true);
    expect(html).not.toMatch(/<style|style="|https?:\/\//);
  });

  it("every file the page loads is a static asset of this worker", async () => {
    const html = await (await SELF.fetch(`${BASE}/api/v1/docs`)).text();
    const files = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] ?? "").filter((f) => !f.startsWith("/api/"));
    expect(files).toEqual([
      "/vendor/swagger-ui-dist/swagger-ui.css",
      "/docs/docs.css",
      "/vendor/swagger-ui-dist/swagger-ui-bundle.js",
      "/docs/init.js",
    ]);
    for (const file of files) {
      const asset = await env.ASSETS.fetch(new Request(`https://ponte.test${file}`));
      expect(asset.status, file).toBe(200);
    }
    const init = await (await env.ASSETS.fetch(new Request("https://ponte.test/docs/init.js"))).text();
    expect(init).toContain("SwaggerUIBundle");
    expect(init).toContain("persistAuthorization: true");
    expect(init).toContain("validatorUrl: null");
  });
});
