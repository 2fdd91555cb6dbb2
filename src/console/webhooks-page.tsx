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
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { Alert, Page, SecretOnce } from "./layout";
import { ActionForm, ButtonForm, type FormField, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";

const SUBSCRIBABLE = [...EVENT_KINDS, "upstream.*", "*"];
type Endpoint = Awaited<ReturnType<typeof getEndpoint>>;
type Attempt = Awaited<ReturnType<typeof sendTestPing>>;

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");

export const EndpointStatus = ({ e }: { e: Endpoint }) =>
  e.enabled ? (
    <span class="badge ok">enabled</span>
  ) : (
    <span class="badge bad">{e.disabledReason === "consecutive_failures" ? "auto-disabled after repeated failures" : "disabled"}</span>
  );

const kindChecks = (checked: string[]): FormField => ({
  name: "eventKinds",
  label: "Event kinds",
  type: "checks",
  options: SUBSCRIBABLE,
  checked,
  mono: true,
  wide: true,
});

interface ListState extends FormState {
  created?: { url: string; secret: string; id: string } | undefined;
}

async function renderList(c: ConsoleContext, state: ListState = {}, status = 200) {
  const { deps, principal } = c.get("console");
  const { rows } = await listEndpoints(deps, principal, { limit: 100, offset: 0 });
  const canManage = principal.permissions.has("webhook_endpoints.manage");
  return c.html(
    <Page title="Webhook endpoints" shell={shellFor(c, "/console/webhooks")}>
      <h1>Webhook endpoints</h1>
      <Outcome state={state} />
      {state.created ? (
        <>
          <Alert kind="success">
            Endpoint created. <a href={`/console/webhooks/${state.created.id}`}>Open it to send a test ping.</a>
          </Alert>
          <SecretOnce id="new-endpoint-secret" label="Signing secret (verify X-Service-Signature with it)" value={state.created.secret} />
        </>
      ) : null}
      <DataTable
        rows={rows}
        empty="No endpoints yet."
        columns={[
          {
            label: "URL",
            cell: (e) => (
              <>
                <a href={`/console/webhooks/${e.id}`}>{e.url}</a>
                {e.description ? <div class="muted">{e.description}</div> : null}
              </>
            ),
          },
          { label: "Event kinds", cell: (e) => e.eventKinds.join(", "), mono: true },
          { label: "Status", cell: (e) => <EndpointStatus e={e} /> },
          { label: "Created", cell: (e) => when(e.createdAt) },
        ]}
      />
      {canManage ? (
        <ActionForm
          id="endpoint"
          title="Add an endpoint"
          action="/console/webhooks"
          submit="Create endpoint"
          state={state}
          stacked
          fields={[
            {
              name: "url",
              label: "URL",
              type: "url",
              id: "endpoint-url",
              required: true,
              placeholder: "https://example.com/webhooks/ponte",
            },
            { name: "description", label: "Description (optional)", id: "endpoint-description", maxlength: 500 },
            kindChecks(["payment.received"]),
          ]}
        />
      ) : null}
    </Page>,
    status as 200,
  );
}

interface DetailState extends FormState {
  secret?: string | undefined;
  attempt?: Attempt | undefined;
}

function TestResult({ a }: { a: Attempt }) {
  return (
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
  );
}

async function renderDetail(c: ConsoleContext, id: string, state: DetailState = {}, status = 200) {
  const { deps, principal } = c.get("console");
  const e = await getEndpoint(deps, principal, id);
  const canManage = principal.permissions.has("webhook_endpoints.manage");
  const button = (path: string, submit: string, kind?: "danger" | "secondary") => (
    <ButtonForm action={`/console/webhooks/${e.id}/${path}`} submit={submit} kind={kind} />
  );
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
      <Outcome state={state} />
      {state.secret ? (
        <SecretOnce
          id="new-endpoint-secret"
          label="New signing secret (the previous one keeps signing for 24 hours)"
          value={state.secret}
        />
      ) : null}
      {state.attempt ? <TestResult a={state.attempt} /> : null}
      {canManage ? (
        <>
          <div class="actions">
            {button("test", "Send test ping")}
            {e.enabled
              ? button("disable", "Disable", "danger")
              : button(
                  "enable",
                  e.disabledReason === "consecutive_failures" ? "Re-enable (resets the failure streak)" : "Enable",
                  "secondary",
                )}
            {button("rotate-secret", "Rotate signing secret", "secondary")}
            <a href={`/console/webhook-logs?endpointId=${e.id}`}>Deliveries of this endpoint</a>
          </div>
          <ActionForm
            id="endpoint"
            title="Edit"
            action={`/console/webhooks/${e.id}`}
            submit="Save changes"
            state={state}
            stacked
            fields={[
              { name: "description", label: "Description", id: "endpoint-description", maxlength: 500, value: e.description ?? "" },
              kindChecks(e.eventKinds),
            ]}
          />
        </>
      ) : null}
    </Page>,
    status as 200,
  );
}

export function registerWebhookPages(app: Hono<ConsoleEnv>) {
  const ctx = (c: ConsoleContext) => c.get("console");
  app.get("/webhooks", (c) => renderList(c));
  // The signing secret is shown once, in this response.
  formAction(app, "/webhooks", {
    fields: ["url", "description"],
    lists: ["eventKinds"],
    run: (c, values, _id, lists) => {
      const input = parseForm(CreateWebhookEndpointBody, {
        url: values.url,
        description: values.description || null,
        eventKinds: lists.eventKinds,
      });
      return createEndpoint(ctx(c).deps, ctx(c).principal, input);
    },
    show: (c, result) => {
      const { url, secret, id } = result as Awaited<ReturnType<typeof createEndpoint>>;
      return renderList(c, { created: { url, secret, id } }, 201);
    },
    render: (c, state, status) => renderList(c, state, status),
  });
  app.get("/webhooks/:id", (c) => renderDetail(c, c.req.param("id")));

  // One shape for every endpoint action: the service call (which checks the permission), then the detail page with its outcome.
  const action = (path: string, run: (c: ConsoleContext, id: string, description: string, kinds: string[]) => Promise<DetailState>) =>
    formAction(app, `/webhooks/:id${path}`, {
      fields: ["description"],
      lists: ["eventKinds"],
      run: (c, values, id, lists) => run(c, id, values.description ?? "", lists.eventKinds ?? []),
      show: (c, result) => renderDetail(c, c.req.param("id") ?? "", result as DetailState),
      render: (c, state, status) => renderDetail(c, c.req.param("id") ?? "", { error: state.error }, status),
    });
  action("", async (c, id, description, eventKinds) => {
    const input = parseForm(UpdateWebhookEndpointBody, { description: description || null, eventKinds });
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
