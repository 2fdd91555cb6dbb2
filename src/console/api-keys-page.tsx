// API keys: create (name, permissions, optional workspace binding; environment fixed to the host's),
// the secret shown once in the POST's own response, list, revoke. All through the api-keys service.
import type { Hono } from "hono";
import { RESOURCES, type Permission } from "../lib/permissions";
import { keyEnvironmentFor } from "../config";
import { CreateApiKeyBody } from "../modules/api-keys/schemas";
import { createApiKey, listApiKeys, revokeApiKey } from "../modules/api-keys/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { Alert, Page, SecretOnce } from "./layout";
import { ActionForm, ButtonForm, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";

type KeyView = Awaited<ReturnType<typeof listApiKeys>>["rows"][number];

interface PageState extends FormState {
  created?: { name: string; secret: string } | undefined;
}

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "—");

async function render(c: ConsoleContext, state: PageState, status: 200 | 201 | 400 | 403 | 404 | 409 | 500 = 200) {
  const session = c.get("console");
  const { principal, memberships } = session;
  const { rows } = await listApiKeys(session.deps, principal, { limit: 100, offset: 0 });
  const workspaces = memberships.find((m) => m.organizationId === principal.organizationId)?.workspaces.filter((w) => !w.archived) ?? [];
  const canManage = principal.permissions.has("api_keys.manage");
  const environment = keyEnvironmentFor(c.env.ENVIRONMENT);
  return c.html(
    <Page title="API keys" shell={shellFor(c, "/console/api-keys")}>
      <h1>API keys</h1>
      <Outcome state={state} />
      {state.created ? (
        <>
          <Alert kind="success">Key “{state.created.name}” created.</Alert>
          <SecretOnce id="new-key-secret" label="Your new API key" value={state.created.secret} />
        </>
      ) : null}
      <h2>Keys</h2>
      <KeyTable rows={rows} canManage={canManage} workspaces={workspaces} />
      {canManage ? (
        <ActionForm
          id="key"
          title="Create a key"
          action="/console/api-keys"
          submit="Create key"
          state={state}
          stacked
          fields={[
            { name: "name", label: "Name", id: "key-name", required: true, maxlength: 100 },
            {
              name: "workspaceId",
              label: "Workspace",
              type: "select",
              id: "key-workspace",
              options: [
                { value: "", label: "All workspaces of the organization" },
                ...workspaces.map((w) => ({ value: w.id, label: w.name })),
              ],
            },
            {
              name: "permissions",
              label: "Permissions",
              type: "checks",
              mono: true,
              options: RESOURCES.flatMap((r) => [`${r}.read`, `${r}.manage`] as Permission[]).filter((p) => principal.permissions.has(p)),
            },
          ]}
          intro={
            <p class="muted">
              Environment: <strong>{environment}</strong> (this host issues {environment} keys only).
            </p>
          }
        />
      ) : (
        <p class="muted">Your role can see keys but not create or revoke them.</p>
      )}
    </Page>,
    status,
  );
}

function KeyTable({ rows, canManage, workspaces }: { rows: KeyView[]; canManage: boolean; workspaces: { id: string; name: string }[] }) {
  return (
    <DataTable
      rows={rows}
      empty="No API keys yet."
      columns={[
        { label: "Name", cell: (k) => k.name },
        { label: "Key", cell: (k) => <code>{`${k.displayPrefix}…${k.last4}`}</code> },
        {
          label: "Workspace",
          cell: (k) => (k.workspaceId ? (workspaces.find((w) => w.id === k.workspaceId)?.name ?? k.workspaceId) : "All"),
        },
        { label: "Permissions", cell: (k) => k.permissions.join(", "), mono: true },
        { label: "Last used", cell: (k) => when(k.lastUsedAt) },
        {
          label: "Status",
          cell: (k) => (k.revokedAt ? <span class="badge bad">revoked {when(k.revokedAt)}</span> : <span class="badge ok">active</span>),
        },
        {
          label: "Actions",
          hiddenLabel: true,
          cell: (k) =>
            canManage && !k.revokedAt ? (
              <ButtonForm action={`/console/api-keys/${k.id}/revoke`} submit="Revoke" kind="danger" label={`Revoke key ${k.name}`} />
            ) : null,
        },
      ]}
    />
  );
}

export function registerApiKeyPages(app: Hono<ConsoleEnv>) {
  app.get("/api-keys", (c) =>
    render(c, { notice: c.req.query("revoked") ? "The key was revoked; it stops working immediately." : undefined }),
  );

  // The key's secret is shown once, in this response.
  formAction(app, "/api-keys", {
    fields: ["name", "workspaceId"],
    lists: ["permissions"],
    run: (c, values, _id, lists) => {
      const { deps, principal } = c.get("console");
      const input = parseForm(CreateApiKeyBody, {
        name: values.name,
        permissions: lists.permissions,
        workspaceId: values.workspaceId || null,
      });
      return createApiKey(deps, principal, input);
    },
    show: (c, result) => {
      const { name, secret } = result as Awaited<ReturnType<typeof createApiKey>>;
      return render(c, { created: { name, secret } }, 201);
    },
    render,
  });

  formAction(app, "/api-keys/:id/revoke", {
    run: (c, _values, id) => revokeApiKey(c.get("console").deps, c.get("console").principal, id),
    done: "/console/api-keys?revoked=1",
    render: (c, state, status) => render(c, { error: state.error }, status),
  });
}
