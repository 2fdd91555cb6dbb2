// GET requests carrying a body are refused with 403, like the CloudFront in front of the upstream.
// workerd's Request refuses to build a GET with a body, so the test hands the worker a POST
// request that reports its method as GET (what a raw HTTP client could send to `wrangler dev`).
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import worker from "../src/index";
import { account, BASE } from "./helpers";

function getWithBody(url: string, token: string, body: string): Request {
  const real = new Request(url, { method: "POST", body, headers: { access_token: token, "content-type": "application/json" } });
  return new Proxy(real, {
    get(target, key) {
      if (key === "method") return "GET";
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

it("answers 403 to a GET with a body", async () => {
  const sim = account();
  const res = await worker.fetch(getWithBody(`${BASE}/v3/customers`, sim.token, '{"name":"x"}'), env as never, createExecutionContext());
  expect(res.status).toBe(403);
  expect((await sim.call("GET", "/v3/customers")).status).toBe(200);
});
