// Console analytics and cost-category pages: the Dashboard (first page after sign-in) with the previous
// period, the metrics explorer, formulas with live validation, the cost-category tree; permissions,
// sign-in redirects and the same-origin rule on every POST. Data is the rollups the metrics service reads.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/lib/time-zones";
import { PASSWORD, seedMember, sessionCookieFrom, signUpUser, uniqueEmail } from "./auth-support";
import { form, page, rollups, tableRows, today } from "./console-analytics-support";
import { BASE } from "./support";

const validate = (cookie: string, expression: string, headers: Record<string, string> = { Origin: BASE }) =>
  SELF.fetch(`${BASE}/console/formulas/validate`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ expression }),
  });

/** The text of the dashboard card of `key`, whitespace collapsed. */
function card(html: string, key: string): string {
  const m = new RegExp(`data-card="${key}"(.*?)</div>\\s*</div>\\s*(?=<div class="card"|</div>)`, "s").exec(html);
  return (m?.[1] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}
const count = async (sql: string, ...args: string[]) =>
  (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;

describe("console dashboard", () => {
  it("is where sign-in lands, and shows the cards with the previous equal period and the revenue-vs-expenses chart", async () => {
    const email = uniqueEmail("dash");
    const { organizationId, workspaceId } = await signUpUser({ email });
    const signIn = await SELF.fetch(`${BASE}/console/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("location")).toBe("/console/dashboard");
    const cookie = sessionCookieFrom(signIn.headers)!;
    const d = today();
    await rollups({ organizationId, workspaceId }, [
      ["revenue", d, 25000], // 250.00 today
      ["revenue", addDays(d, -30), 10000], // 100.00 in the previous 30 days
      ["expenses", d, 5050],
      ["mrr", addDays(d, -40), 9990], // a level: 99.90 in both periods
      ["active_subscriptions", addDays(d, -40), 3],
      ["active_subscriptions", d, 1],
    ]);
    const res = await page("/console/dashboard", cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(card(html, "revenue")).toContain("R$ 250.00");
    expect(card(html, "revenue")).toContain("+150.00 %");
    expect(card(html, "revenue")).toContain("previous: R$ 100.00");
    expect(card(html, "expenses")).toContain("R$ 50.50");
    expect(card(html, "expenses")).toContain("no comparison");
    expect(card(html, "gross_profit")).toContain("R$ 199.50");
    expect(card(html, "mrr")).toContain("R$ 99.90");
    expect(card(html, "mrr")).toContain("0.00 %");
    expect(card(html, "active_subscriptions")).toMatch(/4 .*\+33\.33 %.*previous: 3/);
    expect(card(html, "churn_rate")).toContain("—");
    // The chart: its data (exact strings) for the page script, which loads uPlot from this origin.
    const spec = JSON.parse(
      /data-chart="([^"]*)"/
        .exec(html)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&"),
    ) as { x: string[]; series: { label: string; values: (string | null)[] }[] };
    expect(spec.x).toHaveLength(30);
    expect(spec.x.at(-1)).toBe(d);
    expect(spec.series.map((s) => [s.label, s.values.at(-1)])).toEqual([
      ["Revenue", "250.00"],
      ["Expenses", "50.50"],
    ]);
    expect(html).toContain('<script src="/vendor/uplot/uPlot.iife.min.js" defer');
    expect(html).toContain('<script src="/console/charts.js" defer');
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'nonce-[^']+' 'self';/);
  });

  it("7-day period: the previous period is the 7 days before", async () => {
    const t = await signUpUser();
    const d = today();
    await rollups(t, [
      ["revenue", addDays(d, -6), 1000],
      ["revenue", addDays(d, -7), 4000],
      ["revenue", addDays(d, -14), 9900], // outside both periods
    ]);
    const html = await (await page("/console/dashboard?period=7d", t.cookie)).text();
    expect(html).toContain(`${addDays(d, -6)} to ${d}, compared with ${addDays(d, -13)} to ${addDays(d, -7)}`);
    expect(card(html, "revenue")).toMatch(/R\$ 10\.00 .*-75\.00 %.*previous: R\$ 40\.00/);
  });

  it("another workspace's rollups never show", async () => {
    const a = await signUpUser();
    const b = await signUpUser();
    await rollups(a, [["revenue", today(), 123456]]);
    expect(await (await page("/console/dashboard", b.cookie)).text()).not.toContain("1,234.56");
    expect(card(await (await page("/console/dashboard", a.cookie)).text(), "revenue")).toContain("R$ 1,234.56");
  });

  it("every new page redirects to sign-in without a session", async () => {
    for (const path of [
      "/console/dashboard",
      "/console/metrics",
      "/console/formulas",
      "/console/profitability",
      "/console/cost-categories",
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location")).toBe("/console/sign-in");
    }
  });
});

describe("console metrics explorer", () => {
  it("draws a metric's series with its table and total", async () => {
    const t = await signUpUser();
    const d = today();
    await rollups(t, [
      ["revenue", addDays(d, -1), 12345],
      ["revenue", d, 100],
    ]);
    const res = await page(`/console/metrics?metric=revenue&from=${addDays(d, -2)}&to=${d}&interval=day`, t.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-value="123.45"');
    expect(html).toContain('data-value="1.00"');
    expect(html).toMatch(/data-total[^>]*>R\$ 124\.45</);
    expect(html).toContain("data-chart=");
  });

  it("explains a bad range or an unknown metric in plain words", async () => {
    const t = await signUpUser();
    const bad = await page("/console/metrics?metric=revenue&from=2026-05-02&to=2026-05-01", t.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("from must not be after to");
    const unknown = await page("/console/metrics?metric=nope", t.cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("nope");
  });
});

describe("console formulas", () => {
  it("creates a formula by form, shows its series, and edits it", async () => {
    const t = await signUpUser();
    await rollups(t, [
      ["revenue", today(), 20000],
      ["expenses", today(), 5000],
    ]);
    const created = await form("/console/formulas", t.cookie, {
      key: "margin",
      name: "Margin",
      expression: "(revenue - expenses) / revenue * 100",
      unit: "PERCENT",
      description: "",
    });
    expect(created.status).toBe(303);
    const id = /\/console\/formulas\/([0-9a-f-]{36})\?done=created$/.exec(created.headers.get("location") ?? "")?.[1];
    expect(id).toBeDefined();
    const detail = await (await page(created.headers.get("location")!, t.cookie)).text();
    expect(detail).toContain("Formula created.");
    expect(detail).toMatch(/data-total[^>]*>75 %</); // (200 − 50) / 200 × 100 over the 30 days
    expect(detail).toContain('<script src="/console/formulas.js" defer');
    // What each variable refers to (the API's references), each name linking to the page that explains it.
    expect(tableRows(detail, "data-references")).toEqual([
      ["revenue", "metric", "Revenue"],
      ["expenses", "metric", "Expenses"],
    ]);
    expect(detail).toContain('<a href="/console/metrics?metric=expenses">Expenses</a>');
    expect(await (await page("/console/formulas", t.cookie)).text()).toContain("(revenue - expenses) / revenue * 100");
    // The explorer offers it next to the catalogue.
    expect(await (await page("/console/metrics?metric=margin", t.cookie)).text()).toMatch(/data-total[^>]*>75 %</);

    const edited = await form(`/console/formulas/${id}`, t.cookie, {
      key: "margin",
      name: "Margin",
      expression: "revenue / 100",
      unit: "BRL",
      description: "",
    });
    expect(edited.status).toBe(303);
    expect(await (await page(edited.headers.get("location")!, t.cookie)).text()).toContain("Saved.");
    expect(await env.DB.prepare("SELECT expression, unit FROM formulas WHERE id = ?").bind(id!).first()).toEqual({
      expression: "revenue / 100",
      unit: "BRL",
    });
  });

  it("an invalid expression is refused with its position; nothing is stored", async () => {
    const t = await signUpUser();
    const res = await form("/console/formulas", t.cookie, { key: "broken", name: "Broken", expression: "revenue * (2 +", unit: "BRL" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/at position \d+/);
    expect(html).toContain("revenue * (2 +"); // what was typed stays in the box
    expect(await count("SELECT COUNT(*) AS n FROM formulas WHERE workspace_id = ?", t.workspaceId)).toBe(0);
  });

  it("a viewer reads formulas but sees no form, and a forged create is 403 naming analytics.manage", async () => {
    const owner = await signUpUser();
    const viewer = await seedMember(owner.organizationId, "viewer");
    const list = await page("/console/formulas", viewer.cookie);
    expect(list.status).toBe(200);
    expect(await list.text()).not.toContain("Create formula");
    const res = await form("/console/formulas", viewer.cookie, { key: "x", name: "X", expression: "revenue", unit: "BRL" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("analytics.manage");
    expect(await count("SELECT COUNT(*) AS n FROM formulas WHERE organization_id = ?", owner.organizationId)).toBe(0);
  });

  it("another tenant's formula is a 404 page", async () => {
    const a = await signUpUser();
    const b = await signUpUser();
    const created = await form("/console/formulas", a.cookie, { key: "k", name: "K", expression: "revenue", unit: "BRL" });
    const path = created.headers.get("location")!.replace(/\?.*$/, "");
    expect((await page(path, b.cookie)).status).toBe(404);
    expect((await form(path, b.cookie, { key: "k", name: "K2", expression: "revenue", unit: "BRL" })).status).toBe(404);
  });
});

describe("POST /console/formulas/validate", () => {
  it("answers the variables of a valid expression", async () => {
    const t = await signUpUser();
    const res = await validate(t.cookie, "revenue - expenses.infrastructure");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { valid: boolean; variables: { name: string; kind: string; position: number }[] } };
    const infrastructure = (await env.DB.prepare("SELECT id FROM cost_categories WHERE workspace_id = ? AND key = 'infrastructure'")
      .bind(t.workspaceId)
      .first<{ id: string }>())!;
    expect(body.data).toEqual({
      valid: true,
      variables: [
        { name: "revenue", kind: "metric", position: 0 },
        { name: "expenses.infrastructure", kind: "expenses", position: 10 },
      ],
      // What each variable names, before the formula is saved: the editor lists these.
      references: [
        { variable: "revenue", kind: "metric", id: "revenue", name: "Revenue" },
        { variable: "expenses.infrastructure", kind: "expenses", id: infrastructure.id, name: "Infrastructure" },
      ],
    });
  });

  it("answers valid: false with the position for a syntax error, an unknown variable or an unknown category", async () => {
    const t = await signUpUser();
    for (const [expression, position] of [
      ["revenue +", 9],
      ["revenue + nope", 10],
      ["1 + expenses.no_such_category", 4],
    ] as const) {
      const res = await validate(t.cookie, expression);
      expect(res.status, expression).toBe(200); // the verdict, not a failed request (a browser logs every 4xx)
      const body = (await res.json()) as { data: { valid: boolean; error: { code: string; message: string; position: number } } };
      expect(body.data.valid).toBe(false);
      expect(body.data.error.code).toBe("VALIDATION_FAILED");
      expect(body.data.error.position, expression).toBe(position);
      expect(body.data.error.message).toContain(`position ${position}`);
    }
  });

  it("is a cookie-authenticated write: a cross-site or Origin-less call is 403, and no session redirects", async () => {
    const t = await signUpUser();
    expect((await validate(t.cookie, "revenue", { Origin: "https://evil.example" })).status).toBe(403);
    expect((await validate(t.cookie, "revenue", {})).status).toBe(403);
    const anonymous = await SELF.fetch(`${BASE}/console/formulas/validate`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: BASE, "Content-Type": "application/json" },
      body: JSON.stringify({ expression: "revenue" }),
    });
    expect(anonymous.status).toBe(303);
    const noExpression = await SELF.fetch(`${BASE}/console/formulas/validate`, {
      method: "POST",
      headers: { Origin: BASE, Cookie: t.cookie, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(noExpression.status).toBe(400);
    expect(((await noExpression.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_FAILED");
    expect(anonymous.headers.get("location")).toBe("/console/sign-in");
  });
});

describe("console cost categories", () => {
  it("shows the default tree, creates a child, and archives it", async () => {
    const t = await signUpUser();
    const list = await page("/console/cost-categories", t.cookie);
    expect(list.status).toBe(200);
    const html = await list.text();
    for (const key of ["infrastructure", "software", "payroll", "taxes", "marketing"]) expect(html).toContain(`expenses.${key}`);
    const parent = (await env.DB.prepare("SELECT id FROM cost_categories WHERE workspace_id = ? AND key = 'infrastructure'")
      .bind(t.workspaceId)
      .first<{ id: string }>())!;
    const created = await form("/console/cost-categories", t.cookie, { name: "Cloud hosting", kind: "VARIABLE", parentId: parent.id });
    expect(created.status).toBe(303);
    expect(await (await page(created.headers.get("location")!, t.cookie)).text()).toContain(
      "Created Cloud hosting (expenses.cloud_hosting).",
    );
    const child = (await env.DB.prepare(
      "SELECT id, parent_id, archived FROM cost_categories WHERE workspace_id = ? AND key = 'cloud_hosting'",
    )
      .bind(t.workspaceId)
      .first<{ id: string; parent_id: string; archived: number }>())!;
    expect(child).toMatchObject({ parent_id: parent.id, archived: 0 });

    const archived = await form(`/console/cost-categories/${child.id}/archive`, t.cookie);
    expect(archived.status).toBe(303);
    expect(await (await page(archived.headers.get("location")!, t.cookie)).text()).toContain("Cloud hosting archived.");
    expect(await count("SELECT archived AS n FROM cost_categories WHERE id = ?", child.id)).toBe(1);
    await form(`/console/cost-categories/${child.id}/restore`, t.cookie);
    expect(await count("SELECT archived AS n FROM cost_categories WHERE id = ?", child.id)).toBe(0);
  });

  it("a third level or a taken key is explained; nothing is created", async () => {
    const t = await signUpUser();
    const parent = (await env.DB.prepare("SELECT id FROM cost_categories WHERE workspace_id = ? AND key = 'software'")
      .bind(t.workspaceId)
      .first<{ id: string }>())!;
    await form("/console/cost-categories", t.cookie, { name: "Licences", kind: "FIXED", parentId: parent.id });
    const child = (await env.DB.prepare("SELECT id FROM cost_categories WHERE workspace_id = ? AND key = 'licences'")
      .bind(t.workspaceId)
      .first<{ id: string }>())!;
    const before = await count("SELECT COUNT(*) AS n FROM cost_categories WHERE workspace_id = ?", t.workspaceId);
    const third = await form("/console/cost-categories", t.cookie, { name: "Too deep", kind: "FIXED", parentId: child.id });
    expect(third.status).toBe(400);
    expect(await third.text()).toContain("two levels");
    const taken = await form("/console/cost-categories", t.cookie, { name: "Other name", key: "payroll", kind: "FIXED" });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("payroll");
    expect(await count("SELECT COUNT(*) AS n FROM cost_categories WHERE workspace_id = ?", t.workspaceId)).toBe(before);
  });

  it("a developer (no finance.read) gets 403; a viewer reads without actions; a cross-site POST creates nothing", async () => {
    const owner = await signUpUser();
    const developer = await seedMember(owner.organizationId, "developer");
    const denied = await page("/console/cost-categories", developer.cookie);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("finance.read");
    const viewer = await seedMember(owner.organizationId, "viewer");
    const read = await (await page("/console/cost-categories", viewer.cookie)).text();
    expect(read).toContain("expenses.payroll");
    expect(read).not.toContain("Create category");
    expect(read).not.toMatch(/<button[^>]*>Archive</);
    const before = await count("SELECT COUNT(*) AS n FROM cost_categories WHERE organization_id = ?", owner.organizationId);
    const forged = await form(
      "/console/cost-categories",
      owner.cookie,
      { name: "Forged", kind: "FIXED" },
      { Origin: "https://evil.example" },
    );
    expect(forged.status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM cost_categories WHERE organization_id = ?", owner.organizationId)).toBe(before);
  });
});

describe("console profitability", () => {
  it("shows the report's rows and totals, the shared-cost rule, and explains a bad range", async () => {
    const t = await signUpUser();
    const d = today();
    await rollups(t, [
      ["revenue", d, 30000],
      ["expenses", d, 12000],
    ]);
    const res = await page(`/console/profitability?groupBy=month&from=${addDays(d, -2)}&to=${d}`, t.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    const totals = (/<tr data-totals[^>]*>(.*?)<\/tr>/s.exec(html)?.[1] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(totals).toMatch(/Total R\$ 300\.00 .*R\$ 180\.00 60 %/); // revenue 300.00, gross profit 180.00, margin 60 %
    expect(html).toContain("in proportion");
    const bad = await page(`/console/profitability?from=${d}&to=${addDays(d, -1)}`, t.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("from must not be after to");
  });
});

describe("console scripts are static assets from this origin", () => {
  it.each(["/console/charts.js", "/console/formulas.js"])("serves %s", async (path) => {
    const res = await env.ASSETS.fetch(new Request(`${BASE}${path}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    expect(await res.text()).toContain("querySelectorAll");
  });
});
