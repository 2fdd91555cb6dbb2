// API keys: create (name, permissions, optional workspace binding; environment fixed to the host's),
// the secret shown once in the POST's own response, list, revoke. All through the api-keys service.
import type { Hono } from "hono";
import { RESOURCES, type Permission } from "../lib/permissions";
import { keyEnvironmentFor } from "../config";
import { CreateApiKeyBody } from "../modules/api-keys/schemas";
import { createApiKey, listApiKeys, revokeApiKey } from "../modules/api-keys/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page, SecretOnce } from "./layout";
import { ActionForm, formAction } from "./parts/action-form";
import { DataTable } from "./parts/data-table";

type KeyView = Awaited<ReturnType<typeof listApiKeys>>["rows"][number];

interface PageState {
  error?: string | undefined;
  notice?: string | undefined;
  created?: { name: string; secret: string } | undefined;
  values?: { name: string; permissions: string[]; workspaceId: string } | undefined;
}

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "—");

async function render(c: ConsoleContext, state: PageState, status: 200 | 201 | 400 | 403 | 404 | 409 | 500 = 200) {
  const session = c.get("console");
  const { principal, memberships } = session;
  const { rows } = await listApiKeys(session.deps, principal, { limit: 100, offset: 0 });
  const workspaces = memberships.find((m) => m.organizationId === principal.organizationId)?.workspaces.filter((w) => !w.archived) ?? [];
  const canManage = principal.permissions.has("api_keys.manage");
  const checked = new Set(state.values?.permissions ?? []);
  const environment = keyEnvironmentFor(c.env.ENVIRONMENT);
  return c.html(
    <Page title="API keys" shell={shellFor(c, "/console/api-keys")}>
      <h1>API keys</h1>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {state.created ? (
        <>
          <Alert kind="success">Key “{state.created.name}” created.</Alert>
          <SecretOnce id="new-key-secret" label="Your new API key" value={state.created.secret} />
        </>
      ) : null}
      <h2>Keys</h2>
      <KeyTable rows={rows} canManage={canManage} workspaces={workspaces} />
      {canManage ? (
        <div class="card">
          <h2>Create a key</h2>
          <form method="post" action="/console/api-keys">
            <label for="key-name">Name</label>
            <input id="key-name" name="name" type="text" required maxlength={100} value={state.values?.name ?? ""} />
            <p class="muted">
              Environment: <strong>{environment}</strong> (this host issues {environment} keys only).
            </p>
            <label for="key-workspace">Workspace</label>
            <select id="key-workspace" name="workspaceId">
              <option value="">All workspaces of the organization</option>
              {workspaces.map((w) => (
                <option value={w.id} selected={state.values?.workspaceId === w.id}>
                  {w.name}
                </option>
              ))}
            </select>
            <fieldset>
              <legend>Permissions</legend>
              <div class="checks">
                {RESOURCES.flatMap((r) => [`${r}.read`, `${r}.manage`] as Permission[])
                  .filter((p) => principal.permissions.has(p))
                  .map((p) => (
                    <label>
                      <input type="checkbox" name="permissions" value={p} checked={checked.has(p)} /> <code>{p}</code>
                    </label>
                  ))}
              </div>
            </fieldset>
            <button type="submit">Create key</button>
          </form>
        </div>
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
              <ActionForm
                id={`revoke-${k.id}`}
                bare
                action={`/console/api-keys/${k.id}/revoke`}
                submit="Revoke"
                submitClass="danger"
                submitLabel={`Revoke key ${k.name}`}
              />
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

  app.post("/api-keys", async (c) => {
    const form = await c.req.parseBody({ all: true });
    const permissions = ([] as unknown[]).concat(form.permissions ?? []).filter((p): p is string => typeof p === "string");
    const values = {
      name: typeof form.name === "string" ? form.name : "",
      permissions,
      workspaceId: typeof form.workspaceId === "string" ? form.workspaceId : "",
    };
    const { deps, principal } = c.get("console");
    try {
      const input = parseForm(CreateApiKeyBody, { name: values.name, permissions, workspaceId: values.workspaceId || null });
      const created = await createApiKey(deps, principal, input);
      return render(c, { created: { name: created.name, secret: created.secret } }, 201);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return render(c, { error: plainError(err), values }, statusOf(err) as 400);
    }
  });

  formAction(app, "/api-keys/:id/revoke", {
    run: (c, _values, id) => revokeApiKey(c.get("console").deps, c.get("console").principal, id),
    done: "/console/api-keys?revoked=1",
    render: (c, state, status) => render(c, { error: state.error }, status),
  });
}
