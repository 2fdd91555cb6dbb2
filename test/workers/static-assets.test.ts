import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// The browser files wrangler.toml's [assets] serves (copied by scripts/build-assets.mjs): the console's
// chart library and the API reference's renderer come from Ponte itself, never from a CDN.
describe("static assets", () => {
  it.each([
    ["/vendor/uplot/uPlot.iife.min.js", "javascript", "uPlot"],
    ["/vendor/uplot/uPlot.min.css", "text/css", ".uplot"],
    ["/vendor/swagger-ui-dist/swagger-ui-bundle.js", "javascript", "SwaggerUIBundle"],
    ["/vendor/swagger-ui-dist/swagger-ui.css", "text/css", ".swagger-ui"],
  ])("serves %s", async (path, type, marker) => {
    const res = await env.ASSETS.fetch(new Request(`https://ponte.test${path}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain(type);
    expect(await res.text()).toContain(marker);
  });

  it("answers 404 for a file it does not have", async () => {
    const res = await env.ASSETS.fetch(new Request("https://ponte.test/vendor/uplot/missing.js"));
    expect(res.status).toBe(404);
  });
});
