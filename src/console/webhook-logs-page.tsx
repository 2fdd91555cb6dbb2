// The webhook log area: deliveries filtered by endpoint, kind and status; one delivery with its attempts
// (time, status code, duration, response excerpt) and payload; redeliver. All through webhook-logs' service.
import type { Hono } from "hono";
import { DELIVERY_STATUSES, type DeliveryStatus } from "../db/schema";
import { listEndpoints } from "../modules/webhook-endpoints/service";
import { getDelivery, listDeliveries, redeliver } from "../modules/webhook-logs/service";
import { type ConsoleContext, type ConsoleEnv, shellFor } from "./context";
import { Page } from "./layout";
import { ButtonForm, formAction, Outcome } from "./parts/action-form";
import { DataTable, pageOf } from "./parts/data-table";
import { FilterBar } from "./parts/filter-bar";

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");
const STATUS_BADGE: Record<string, string> = { succeeded: "ok", failed: "bad", retrying: "warn", pending: "" };
const isStatus = (s: string | undefined): s is DeliveryStatus => !!s && (DELIVERY_STATUSES as readonly string[]).includes(s);

export function registerWebhookLogPages(app: Hono<ConsoleEnv>) {
  app.get("/webhook-logs", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const q = {
      endpointId: c.req.query("endpointId") || undefined,
      eventType: c.req.query("eventType")?.trim() || undefined,
      status: c.req.query("status") || undefined,
    };
    const [endpoints, deliveries] = await Promise.all([
      listEndpoints(deps, principal, { limit: 100, offset: 0 }),
      listDeliveries(
        deps,
        principal,
        { endpointId: q.endpointId, eventType: q.eventType, status: isStatus(q.status) ? q.status : undefined },
        request,
      ),
    ]);
    const urlOf = new Map(endpoints.rows.map((e) => [e.id, e.url]));
    return c.html(
      <Page title="Webhook log" shell={shellFor(c, "/console/webhook-logs")}>
        <h1>Webhook log</h1>
        <FilterBar
          c={c}
          path="/console/webhook-logs"
          label="Filter deliveries"
          fields={[
            {
              name: "endpointId",
              label: "Endpoint",
              options: endpoints.rows.map((e) => ({ value: e.id, label: e.url })),
              any: "All endpoints",
            },
            { name: "eventType", label: "Event kind", placeholder: "e.g. payment.received or ping" },
            { name: "status", label: "Status", options: DELIVERY_STATUSES, any: "Any status" },
          ]}
        />
        <DataTable
          rows={deliveries.rows}
          empty="No deliveries match."
          paging={{ c, path: "/console/webhook-logs", page, total: deliveries.totalCount }}
          columns={[
            { label: "Created", cell: (d) => when(d.createdAt), href: (d) => `/console/webhook-logs/${d.id}` },
            { label: "Kind", cell: (d) => <code>{d.eventType}</code> },
            { label: "Endpoint", cell: (d) => urlOf.get(d.endpointId) ?? "(deleted endpoint)", mono: true },
            { label: "Status", cell: (d) => <span class={`badge ${STATUS_BADGE[d.status] ?? ""}`}>{d.status}</span> },
            { label: "Attempts", cell: (d) => d.attemptCount },
            { label: "Last code", cell: (d) => d.lastStatusCode ?? d.lastErrorKind ?? "—" },
            { label: "Next attempt", cell: (d) => when(d.nextAttemptAt) },
          ]}
        />
      </Page>,
    );
  });

  const renderDelivery = async (c: ConsoleContext, id: string, state: { error?: string; notice?: string } = {}, status = 200) => {
    const { deps, principal } = c.get("console");
    const d = await getDelivery(deps, principal, id);
    return c.html(
      <Page title="Webhook delivery" shell={shellFor(c, "/console/webhook-logs")}>
        <p>
          <a href="/console/webhook-logs">← Webhook log</a>
        </p>
        <h1>
          Delivery <code>{d.eventType}</code> <span class={`badge ${STATUS_BADGE[d.status] ?? ""}`}>{d.status}</span>
        </h1>
        <Outcome state={state} />
        <p class="muted">
          Delivery <code>{d.id}</code> · event <code>{d.eventId}</code> · endpoint{" "}
          <a href={`/console/webhooks/${d.endpointId}`}>
            <code>{d.endpointId}</code>
          </a>
        </p>
        {principal.permissions.has("webhook_endpoints.manage") ? (
          <ButtonForm action={`/console/webhook-logs/${d.id}/redeliver`} submit="Redeliver now" />
        ) : null}
        <h2>Attempts</h2>
        <DataTable
          rows={d.attempts}
          empty="No attempts yet."
          columns={[
            { label: "Time", cell: (a) => when(a.attemptedAt) },
            { label: "Trigger", cell: (a) => a.trigger },
            {
              label: "Result",
              cell: (a) => (
                <>
                  {a.succeeded ? <span class="badge ok">succeeded</span> : <span class="badge bad">{a.errorKind ?? "failed"}</span>}
                  {a.errorMessage ? <div class="muted">{a.errorMessage}</div> : null}
                </>
              ),
            },
            { label: "Status code", cell: (a) => a.statusCode ?? "—" },
            { label: "Duration", cell: (a) => `${a.durationMs} ms` },
            { label: "Response excerpt", cell: (a) => a.responseExcerpt?.slice(0, 300) ?? "", mono: true },
          ]}
        />
        <h2>Payload</h2>
        <pre class="card mono">{JSON.stringify(d.payload, null, 2)}</pre>
      </Page>,
      status as 200,
    );
  };

  app.get("/webhook-logs/:id", (c) => renderDelivery(c, c.req.param("id")));
  formAction(app, "/webhook-logs/:id/redeliver", {
    run: (c, _values, id) => redeliver(c.get("console").deps, c.get("console").principal, id),
    show: (c, result) => {
      const attempt = result as Awaited<ReturnType<typeof redeliver>>;
      return renderDelivery(c, c.req.param("id") ?? "", {
        notice: `Redelivered: ${attempt.succeeded ? "succeeded" : "failed"} with status ${attempt.statusCode ?? "none"} in ${attempt.durationMs} ms.`,
      });
    },
    render: (c, state, status) => renderDelivery(c, c.req.param("id") ?? "", { error: state.error }, status),
  });
}
