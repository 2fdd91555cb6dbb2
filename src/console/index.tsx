// The developer console, served by the same worker under /console: server-rendered pages, forms that
// post back and redirect, the session cookie for identity. No SPA, no external assets.
import { Hono } from "hono";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { registerApiKeyPages } from "./api-keys-page";
import { registerAwsConnectionPages } from "./aws-connections-page";
import { registerConsoleAuthPages } from "./auth-pages";
import { type ConsoleEnv, consoleHeaders, plainError, requireConsoleSession, statusOf } from "./context";
import { registerCostCategoryPages } from "./cost-categories-page";
import { registerDashboardPage } from "./dashboard";
import { registerFormulaPages } from "./formulas-page";
import { registerGatewayPages } from "./gateway-page";
import { registerInvitationPages } from "./invitation-page";
import { Alert, Page } from "./layout";
import { registerMetricsPage } from "./metrics-page";
import { registerOverviewPage } from "./overview-page";
import { registerProfitabilityPage } from "./profitability-page";
import { registerTeamPages } from "./team-page";
import { registerSupplierPages } from "./suppliers-page";
import { registerExpensePages } from "./expenses-page";
import { registerWebhookLogPages } from "./webhook-logs-page";
import { registerWebhookPages } from "./webhooks-page";
import { registerListPages } from "./data-pages/list-pages";
import { registerListenPage } from "./listen-page";
import { registerSettingsPages } from "./settings-pages";
import { registerPaymentPages } from "./data-pages/payments-page";
import { logLine, summarizeError } from "../lib/log";

const PUBLIC_PAGES = new Set(["/console/sign-in", "/console/sign-up", "/console/sign-out", "/console/invitations/accept"]);

export function buildConsole() {
  const app = new Hono<ConsoleEnv>();
  app.use("*", consoleHeaders());
  app.use("*", async (c, next) => {
    const path = c.req.path.replace(/\/+$/, "") || "/";
    if (PUBLIC_PAGES.has(path)) return next();
    return requireConsoleSession()(c, next);
  });
  registerConsoleAuthPages(app);
  registerOverviewPage(app);
  registerDashboardPage(app);
  registerMetricsPage(app);
  registerFormulaPages(app);
  registerProfitabilityPage(app);
  registerCostCategoryPages(app);
  registerApiKeyPages(app);
  registerWebhookPages(app);
  registerWebhookLogPages(app);
  registerGatewayPages(app);
  registerAwsConnectionPages(app);
  registerSupplierPages(app);
  registerExpensePages(app);
  registerTeamPages(app);
  registerListPages(app);
  registerPaymentPages(app);
  registerInvitationPages(app);
  registerListenPage(app);
  registerSettingsPages(app);
  // Mounted sub-apps fall through to the API's JSON 404, so the console answers its own unknown paths.
  app.all("*", (c) =>
    c.html(
      <Page title="Not found" shell={{ nonce: c.get("nonce") }}>
        <h1>Page not found</h1>
        <p>
          <a href="/console">Back to the console</a>
        </p>
      </Page>,
      404,
    ),
  );
  app.onError((err, c) => {
    if (statusOf(err) === 500) logLine("error", "console page failed", { requestId: c.get("requestId"), error: summarizeError(err) });
    return c.html(
      <Page title="Something went wrong" shell={{ nonce: c.get("nonce") ?? "" }}>
        <h1>That did not work</h1>
        <Alert kind="error">{plainError(err)}</Alert>
        <p class="muted">
          Request id: <code>{c.get("requestId")}</code>
        </p>
        <p>
          <a href="/console">Back to the console</a>
        </p>
      </Page>,
      statusOf(err) as 403,
    );
  });
  return app;
}

export function registerConsole(app: OpenAPIHono<AppEnv>) {
  app.route("/console", buildConsole() as unknown as Hono<AppEnv>);
}
