// Webhook endpoints: create (signing secret shown once), edit event kinds, enable/disable, rotate the
// secret, Test (a ping attempted now; its status and timing shown), re-enable after auto-disable.
// Every action calls the webhook-endpoints service; nothing here decides delivery rules.
import type { Hono } from "hono";
import { EVENT_KINDS } from "../events/kinds";
import { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from "../modules/webhook-endpoints/schemas";
import {
  createEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  sendTestPing,
  updateEndpoint,
} from "../modules/webhook-endpoints/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page, SecretOnce } from "./layout";

const SUBSCRIBABLE = [...EVENT_KINDS, "upstream.*", "*"];
type Endpoint = Awaited<ReturnType<typeof getEndpoint>>;
type Attempt = Awaited<ReturnType<typeof sendTestPing>>;

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");
const kindsFrom = (form: Record<string, unknown>) =>
  ([] as unknown[]).concat(form.eventKinds ?? []).filter((k): k is string => typeof k === "string");

export const EndpointStatus = ({ e }: { e: Endpoint }) =>
  e.enabled ? (
    <span class="badge ok">enabled</span>
  ) : (
    <span class="badge bad">{e.disabledReason === "consecutive_failures" ? "auto-disabled after repeated failures" : "disabled"}</span>
  );

function KindChecks({ selected }: { selected: string[] }) {
  return (
    <fieldset>
      <legend>Event kinds</legend>
      <div class="checks">
        {SUBSCRIBABLE.map((k) => (
          <label>
            <input type="checkbox" name="eventKinds" value={k} checked={selected.includes(k)} /> <code>{k}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

async function renderList(
  c: ConsoleContext,
  state: {
    error?: string;
    created?: { url: string; secret: string; id: string };
    values?: { url: string; description: string; eventKinds: string[] };
  } = {},
  status = 200,
) {
  const { deps, principal } = c.get("console");
  const { rows } = await listEndpoints(deps, principal, { limit: 100, offset: 0 });
  const canManage = principal.permissions.has("webhook_endpoints.manage");
  return c.html(
    <Page title="Webhook endpoints" shell={shellFor(c, "/console/webhooks")}>
      <h1>Webhook endpoints</h1>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.created ? (
        <>
          <Alert kind="success">
            Endpoint created. <a href={`/console/webhooks/${state.created.id}`}>Open it to send a test ping.</a>
          </Alert>
          <SecretOnce id="new-endpoint-secret" label="Signing secret (verify X-Service-Signature with it)" value={state.created.secret} />
        </>
      ) : null}
      {rows.length === 0 ? (
        <p class="muted">No endpoints yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Event kinds</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr>
                <td>
                  <a href={`/console/webhooks/${e.id}`}>{e.url}</a>
                  {e.description ? <div class="muted">{e.description}</div> : null}
                </td>
                <td class="mono">{e.eventKinds.join(", ")}</td>
                <td>
                  <EndpointStatus e={e} />
                </td>
                <td>{when(e.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canManage ? (
        <div class="card">
          <h2>Add an endpoint</h2>
          <form method="post" action="/console/webhooks">
            <label for="endpoint-url">URL</label>
            <input
              id="endpoint-url"
              name="url"
              type="url"
              required
              placeholder="https://example.com/webhooks/ponte"
              value={state.values?.url ?? ""}
            />
            <label for="endpoint-description">Description (optional)</label>
            <input id="endpoint-description" name="description" type="text" maxlength={500} value={state.values?.description ?? ""} />
            <KindChecks selected={state.values?.eventKinds ?? ["payment.received"]} />
            <button type="submit">Create endpoint</button>
          </form>
        </div>
      ) : null}
    </Page>,
    status as 200,
  );
}

async function renderDetail(
  c: ConsoleContext,
  id: string,
  state: { error?: string; notice?: string; secret?: string; attempt?: Attempt } = {},
  status = 200,
) {
  const { deps, principal } = c.get("console");
  const e = await getEndpoint(deps, principal, id);
  const canManage = principal.permissions.has("webhook_endpoints.manage");
  const a = state.attempt;
  return c.html(
    <Page title="Webhook endpoint" shell={shellFor(c, "/console/webhooks")}>
      <p>
        <a href="/console/webhooks">← All endpoints</a>
      </p>
      <h1 class="mono">{e.url}</h1>
      <p>
        <EndpointStatus e={e} />{" "}
        <span class="muted">
          Consecutive failures: {e.consecutiveFailures}. Secret last rotated: {when(e.secretRotatedAt)}.
        </span>
      </p>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {state.secret ? (
        <SecretOnce
          id="new-endpoint-secret"
          label="New signing secret (the previous one keeps signing for 24 hours)"
          value={state.secret}
        />
      ) : null}
      {a ? (
        <div class="card" data-test-result>
          <h2>Test ping result</h2>
          <p>
            {a.succeeded ? <span class="badge ok">delivered</span> : <span class="badge bad">failed</span>} Status code:{" "}
            <strong>{a.statusCode ?? "none"}</strong>, took <strong>{a.durationMs} ms</strong>
            {a.errorMessage ? ` — ${a.errorMessage}` : ""}.
          </p>
          {a.responseExcerpt ? <pre class="mono">{a.responseExcerpt}</pre> : null}
          <p>
            <a href={`/console/webhook-logs/${a.deliveryId}`}>See it in the webhook log</a>
          </p>
        </div>
      ) : null}
      {canManage ? (
        <>
          <div class="actions">
            <form method="post" action={`/console/webhooks/${e.id}/test`}>
              <button type="submit">Send test ping</button>
            </form>
            {e.enabled ? (
              <form method="post" action={`/console/webhooks/${e.id}/disable`}>
                <button type="submit" class="danger">
                  Disable
                </button>
              </form>
            ) : (
              <form method="post" action={`/console/webhooks/${e.id}/enable`}>
                <button type="submit" class="secondary">
                  {e.disabledReason === "consecutive_failures" ? "Re-enable (resets the failure streak)" : "Enable"}
                </button>
              </form>
            )}
            <form method="post" action={`/console/webhooks/${e.id}/rotate-secret`}>
              <button type="submit" class="secondary">
                Rotate signing secret
              </button>
            </form>
            <a href={`/console/webhook-logs?endpointId=${e.id}`}>Deliveries of this endpoint</a>
          </div>
          <div class="card">
            <h2>Edit</h2>
            <form method="post" action={`/console/webhooks/${e.id}`}>
              <label for="endpoint-description">Description</label>
              <input id="endpoint-description" name="description" type="text" maxlength={500} value={e.description ?? ""} />
              <KindChecks selected={e.eventKinds} />
              <button type="submit">Save changes</button>
            </form>
          </div>
        </>
      ) : null}
    </Page>,
    status as 200,
  );
}

export function registerWebhookPages(app: Hono<ConsoleEnv>) {
  app.get("/webhooks", (c) => renderList(c));
  app.post("/webhooks", async (c) => {
    const form = await c.req.parseBody({ all: true });
    const values = { url: String(form.url ?? ""), description: String(form.description ?? ""), eventKinds: kindsFrom(form) };
    const { deps, principal } = c.get("console");
    try {
      const input = parseForm(CreateWebhookEndpointBody, {
        url: values.url.trim(),
        description: values.description.trim() || null,
        eventKinds: values.eventKinds,
      });
      const created = await createEndpoint(deps, principal, input);
      return renderList(c, { created: { url: created.url, secret: created.secret, id: created.id } }, 201);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return renderList(c, { error: plainError(err), values }, statusOf(err));
    }
  });
  app.get("/webhooks/:id", (c) => renderDetail(c, c.req.param("id")));

  // One handler shape for every endpoint action: the service call (which checks the permission), then the detail page.
  const action = (
    path: string,
    run: (c: ConsoleContext, id: string, form: Record<string, unknown>) => Promise<Parameters<typeof renderDetail>[2]>,
  ) =>
    app.post(`/webhooks/:id${path}`, async (c) => {
      const id = c.req.param("id");
      const form = await c.req.parseBody({ all: true });
      try {
        return await renderDetail(c, id, await run(c, id, form));
      } catch (err) {
        if (!isExpected(err)) throw err;
        return renderDetail(c, id, { error: plainError(err) }, statusOf(err));
      }
    });
  const ctx = (c: ConsoleContext) => c.get("console");
  action("", async (c, id, form) => {
    const input = parseForm(UpdateWebhookEndpointBody, {
      description: String(form.description ?? "").trim() || null,
      eventKinds: kindsFrom(form),
    });
    await updateEndpoint(ctx(c).deps, ctx(c).principal, id, input);
    return { notice: "Saved." };
  });
  action("/enable", async (c, id) => {
    await enableEndpoint(ctx(c).deps, ctx(c).principal, id);
    return { notice: "Enabled; the failure streak starts over." };
  });
  action("/disable", async (c, id) => {
    await updateEndpoint(ctx(c).deps, ctx(c).principal, id, { enabled: false });
    return { notice: "Disabled; pending deliveries were marked failed." };
  });
  action("/rotate-secret", async (c, id) => ({ secret: (await rotateSecret(ctx(c).deps, ctx(c).principal, id)).secret }));
  action("/test", async (c, id) => ({ attempt: await sendTestPing(ctx(c).deps, ctx(c).principal, id) }));
}
