// Settings: the organization (its name, id, default workspace and time zone — the time zone every day-based
// figure of the dashboard and the metrics is cut in) and its workspaces (list, create). Through the
// organizations and workspaces services, so each page refuses without its read permission as the API does, and
// the organization form is PATCH /api/v1/organizations/current's body and service (a new zone rebuilds the metrics).
import type { Hono } from "hono";
import { TIME_ZONES, type TimeZone } from "../lib/time-zones";
import { UpdateOrganization } from "../modules/organizations/routes";
import { currentOrganization, updateOrganization } from "../modules/organizations/service";
import { CreateWorkspace } from "../modules/workspaces/routes";
import { createWorkspace, listWorkspaces } from "../modules/workspaces/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { when } from "./data-pages/common";
import { Page } from "./layout";
import { ActionForm, bodyOf, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable, pageOf } from "./parts/data-table";

const ORGANIZATION_NOTICES: Record<string, string> = { saved: "Organization saved." };

async function renderOrganization(c: ConsoleContext, state: FormState = {}, status: 200 | 400 = 200) {
  const { deps, principal } = c.get("console");
  const org = await currentOrganization(deps, principal);
  const done = c.req.query("done");
  const notice =
    state.notice ??
    (done === "rebuilt"
      ? `Time zone set to ${org.timeZone}. The metrics and the dashboard were rebuilt in it: their days now start at midnight there.`
      : ORGANIZATION_NOTICES[done ?? ""]);
  return c.html(
    <Page title="Organization" shell={shellFor(c, "/console/organization")}>
      <h1>Organization</h1>
      <Outcome state={{ ...state, notice }} />
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
        <p class="muted">
          Days on the dashboard and in the metrics are cut at midnight in this time zone. The API reads it at{" "}
          <code>GET /api/v1/organizations/current</code>.
        </p>
      </div>
      {principal.permissions.has("organizations.manage") ? (
        <ActionForm
          id="org"
          title="Name and time zone"
          action="/console/organization"
          submit="Save"
          state={state}
          fields={[
            { name: "name", label: "Name", required: true, maxlength: 100, value: org.name },
            {
              name: "timeZone",
              label: "Time zone",
              type: "select",
              options: TIME_ZONES,
              value: org.timeZone,
              hint: "A new zone rebuilds every workspace's metrics in it (owners and admins).",
            },
          ]}
        />
      ) : (
        <p class="muted">Your role can see the organization but not change it.</p>
      )}
    </Page>,
    status,
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
  formAction(app, "/organization", {
    fields: ["name", "timeZone"],
    run: async (c, values) => {
      const { deps, principal } = c.get("console");
      // Both fields are always on the form: an emptied name is the API's 400, not "leave the name as it is".
      const body = parseForm(UpdateOrganization, values);
      const before = await currentOrganization(deps, principal);
      const after = await updateOrganization(deps, principal, { name: body.name, timeZone: body.timeZone as TimeZone | undefined });
      return after.timeZone !== before.timeZone;
    },
    done: (_c, rebuilt) => `/console/organization?done=${rebuilt ? "rebuilt" : "saved"}`,
    render: renderOrganization,
  });
  app.get("/workspaces", (c) => renderWorkspaces(c));
  formAction(app, "/workspaces", {
    fields: ["name"],
    run: (c, values) => createWorkspace(c.get("console").deps, c.get("console").principal, parseForm(CreateWorkspace, bodyOf(values))),
    done: "/console/workspaces?done=created",
    render: renderWorkspaces,
  });
}
