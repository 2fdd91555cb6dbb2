// Settings: the organization (its name, id, default workspace and time zone — the time zone every day-based
// figure of the dashboard and the metrics is cut in) and its workspaces (list, create). Through the
// organizations and workspaces services, so each page refuses without its read permission as the API does.
import type { Hono } from "hono";
import { currentOrganization } from "../modules/organizations/service";
import { CreateWorkspace } from "../modules/workspaces/routes";
import { createWorkspace, listWorkspaces } from "../modules/workspaces/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { when } from "./data-pages/common";
import { Page } from "./layout";
import { ActionForm, bodyOf, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable, pageOf } from "./parts/data-table";

async function renderOrganization(c: ConsoleContext) {
  const { deps, principal } = c.get("console");
  const org = await currentOrganization(deps, principal);
  return c.html(
    <Page title="Organization" shell={shellFor(c, "/console/organization")}>
      <h1>Organization</h1>
      <div class="card">
        <dl class="facts">
          <dt>Name</dt>
          <dd data-organization-name>{org.name}</dd>
          <dt>Id</dt>
          <dd>
            <code>{org.id}</code>
          </dd>
          <dt>Time zone</dt>
          <dd data-time-zone>
            <code>{org.timeZone}</code>
          </dd>
          <dt>Default workspace</dt>
          <dd>
            <code>{org.defaultWorkspaceId ?? "—"}</code>
          </dd>
          <dt>Created</dt>
          <dd>{when(org.createdAt)}</dd>
        </dl>
        {/* Setting the time zone: when the organizations service can change it, render an <ActionForm id="org"
            action="/console/organization" fields={[{ name: "timeZone", type: "select", … }]}> here and register
            formAction(app, "/organization", { fields: ["timeZone"], run: that service call, done: "/console/organization?done=saved" }). */}
        <p class="muted">
          Days on the dashboard and in the metrics are cut at midnight in this time zone. The API reads it at{" "}
          <code>GET /api/v1/organizations/current</code>.
        </p>
      </div>
    </Page>,
  );
}

const WORKSPACE_NOTICES: Record<string, string> = { created: "Workspace created, with the default cost categories." };

async function renderWorkspaces(c: ConsoleContext, state: FormState = {}, status: 200 | 400 = 200) {
  const { deps, principal } = c.get("console");
  const { page, request } = pageOf(c);
  const [{ rows, totalCount }, org] = await Promise.all([
    listWorkspaces(deps, principal, request),
    currentOrganization(deps, principal).catch(() => null),
  ]);
  const notice = state.notice ?? WORKSPACE_NOTICES[c.req.query("done") ?? ""];
  return c.html(
    <Page title="Workspaces" shell={shellFor(c, "/console/workspaces")}>
      <h1>Workspaces</h1>
      <p class="muted">Each workspace keeps its own customers, payments, keys and finance; the switcher at the top acts in one.</p>
      <Outcome state={{ ...state, notice }} />
      <DataTable
        rows={rows}
        empty="No workspaces."
        paging={{ c, path: "/console/workspaces", page, total: totalCount }}
        rowAttrs={(w) => ({ "data-workspace": w.id })}
        columns={[
          { label: "Name", cell: (w) => (w.id === org?.defaultWorkspaceId ? `${w.name} (default)` : w.name) },
          { label: "Id", cell: (w) => w.id, mono: true },
          { label: "Status", cell: (w) => <span class={`badge ${w.status === "active" ? "ok" : "bad"}`}>{w.status}</span> },
          { label: "Created", cell: (w) => when(w.createdAt) },
        ]}
      />
      {principal.permissions.has("workspaces.manage") ? (
        <ActionForm
          id="workspace"
          title="New workspace"
          action="/console/workspaces"
          submit="Create workspace"
          state={state}
          fields={[{ name: "name", label: "Name", required: true, maxlength: 100 }]}
        />
      ) : (
        <p class="muted">Your role can see the workspaces but not create them.</p>
      )}
    </Page>,
    status,
  );
}

export function registerSettingsPages(app: Hono<ConsoleEnv>) {
  app.get("/organization", (c) => renderOrganization(c));
  app.get("/workspaces", (c) => renderWorkspaces(c));
  formAction(app, "/workspaces", {
    fields: ["name"],
    run: (c, values) => createWorkspace(c.get("console").deps, c.get("console").principal, parseForm(CreateWorkspace, bodyOf(values))),
    done: "/console/workspaces?done=created",
    render: renderWorkspaces,
  });
}
