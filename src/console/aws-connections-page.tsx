// AWS connections: connect an account (access key, or a role Ponte assumes), Verify it, Sync its costs
// into expenses, disable and enable it, and read each connection's status and last error; each one's edit
// page (finance/aws-connection-edit.tsx) renames, re-rates, re-files, changes credentials and deletes it.
// Every action calls the aws-connections services; the secret access key is a password field and is
// never shown back. Actions redirect (a reload repeats nothing); the outcome is read back from the stored
// connection (its status, account, last error) or, for a sync, from the counts the redirect carries.
import type { Hono } from "hono";
import { SyncBody, syncAwsConnection } from "../modules/aws-connections/cost-import";
import {
  CreateAwsConnectionBody,
  createAwsConnection,
  listAwsConnections,
  updateAwsConnection,
  verifyAwsConnection,
} from "../modules/aws-connections/service";
import { listCostCategories } from "../modules/cost-categories/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { AWS_FIELDS, awsFields, type Connection, registerAwsConnectionEditPages } from "./finance/aws-connection-edit";
import { Page } from "./layout";
import { ActionForm, bodyOf, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";
import { manage } from "./finance/record-actions";

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");
const BADGE: Record<Connection["status"], string> = { ACTIVE: "ok", FAILED: "bad", PENDING: "warn", DISABLED: "warn" };
const SYNC_COUNTS = ["pages", "created", "updated", "deleted", "unchanged"] as const;

/** The outcome a redirect named (`?done=…&id=…`), read from the connection as stored now. */
function outcomeOf(c: ConsoleContext, rows: Connection[]): FormState {
  const q = (name: string) => c.req.query(name) ?? "";
  const done = q("done");
  if (done === "deleted") return { notice: "Connection deleted. The expenses it imported stay." };
  const conn = rows.find((r) => r.id === q("id"));
  if (!conn) return {};
  const failed = { error: `AWS refused: ${conn.lastError ?? "unknown error"}. The connection is marked failed.` };
  switch (done) {
    case "connected":
      return {
        notice:
          conn.authType === "ROLE"
            ? `Connected. Add the external id ${conn.externalId} to the role's trust policy, then press Verify.`
            : "Connected. Press Verify to check the key.",
      };
    case "verified":
      return conn.status === "ACTIVE"
        ? { notice: `Verified: AWS account ${conn.awsAccountId}. The connection is active and syncs daily.` }
        : failed;
    case "synced": {
      const [pages, created, updated, deleted, unchanged] = SYNC_COUNTS.map((k) => Number.parseInt(q(k), 10) || 0);
      return {
        notice: `Synced ${q("from")} to ${q("to")} (${pages} page${pages === 1 ? "" : "s"}): ${created} new, ${updated} corrected, ${deleted} removed, ${unchanged} unchanged.`,
      };
    }
    case "sync-failed":
      return { error: `The sync failed: ${conn.lastError ?? "unknown error"}. The connection is marked failed.` };
    case "disabled":
      return { notice: `${conn.name} is disabled: it no longer syncs.` };
    case "enabled":
      return { notice: `${conn.name} is enabled again; press Verify to make it active.` };
    case "updated":
      return { notice: `${conn.name} saved.` };
    default:
      return {};
  }
}

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const [{ rows }, { rows: categories }] = await Promise.all([
    listAwsConnections(deps, principal, { limit: 100, offset: 0 }),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const canManage = principal.permissions.has("finance.manage");
  const categoryName = new Map(categories.map((k) => [k.id, k.name]));
  return c.html(
    <Page title="AWS connections" shell={shellFor(c, "/console/aws-connections")}>
      <h1>AWS connections</h1>
      <p class="muted">
        AWS accounts whose costs Ponte imports from Cost Explorer as expenses (one per day and service, in USD at the connection's rate).
        Active connections sync every day; Sync imports a range now (default: the last 30 days).
      </p>
      <Outcome state={state.error || state.notice ? state : outcomeOf(c, rows)} />
      <DataTable
        rows={rows}
        empty="No AWS account connected to this workspace yet."
        rowAttrs={(conn) => ({ "data-aws-connection": conn.id })}
        columns={[
          {
            label: "Connection",
            cell: (conn) => (
              <>
                <strong>{conn.name}</strong>
                <br />
                {conn.authType === "ROLE" ? (
                  <span class="muted">
                    Role <code>{conn.roleArn}</code>
                    <br />
                    External id <code data-external-id>{conn.externalId}</code>
                  </span>
                ) : (
                  <span class="muted">
                    Access key <code>{conn.accessKeyId}</code>
                  </span>
                )}
              </>
            ),
          },
          {
            label: "Status",
            cell: (conn) => (
              <>
                <span class={`badge ${BADGE[conn.status]}`} data-status={conn.status}>
                  {conn.status.toLowerCase()}
                </span>
                {conn.awsAccountId ? (
                  <>
                    <br />
                    <span class="muted">account {conn.awsAccountId}</span>
                  </>
                ) : null}
                {conn.lastError ? (
                  <p class="mono" data-last-error>
                    {conn.lastError}
                  </p>
                ) : null}
              </>
            ),
          },
          {
            label: "Filed under",
            cell: (conn) => (
              <>
                {categoryName.get(conn.costCategoryId) ?? conn.costCategoryId}
                <br />
                <span class="muted" data-rate>
                  R$ {conn.exchangeRate} per USD
                </span>
              </>
            ),
          },
          {
            label: "Last sync",
            cell: (conn) => (
              <>
                {when(conn.lastSyncedAt)}
                <br />
                <span class="muted">through {conn.syncedThrough ?? "—"}</span>
              </>
            ),
          },
          ...(canManage ? [{ label: "Actions", cell: (conn: Connection) => <Actions conn={conn} /> }] : []),
        ]}
      />
      {canManage ? (
        <ActionForm
          id="aws"
          title="Connect an AWS account"
          action="/console/aws-connections"
          submit="Connect"
          state={state}
          fields={awsFields(categories)}
        />
      ) : (
        <p class="muted">Your role can see AWS connections but not change them.</p>
      )}
    </Page>,
    status,
  );
}

function Actions({ conn }: { conn: Connection }) {
  const disabled = conn.status === "DISABLED";
  const base = `/console/aws-connections/${conn.id}`;
  return (
    <div class="actions">
      <a href={`${base}/edit`} aria-label={`Edit ${conn.name}`}>
        Edit
      </a>
      {disabled ? null : (
        <ActionForm
          id={`verify-${conn.id}`}
          bare
          action={`${base}/verify`}
          submit="Verify"
          submitClass="secondary"
          submitLabel={`Verify ${conn.name}`}
        />
      )}
      <ActionForm
        id={`toggle-${conn.id}`}
        bare
        action={`${base}/${disabled ? "enable" : "disable"}`}
        submit={disabled ? "Enable" : "Disable"}
        submitClass="secondary"
        submitLabel={`${disabled ? "Enable" : "Disable"} ${conn.name}`}
      />
      {disabled ? null : (
        <ActionForm
          id={`sync-${conn.id}`}
          bare
          action={`${base}/sync`}
          submit="Sync"
          submitLabel={`Sync ${conn.name}`}
          fields={[
            { name: "from", label: "From", type: "date", id: `from-${conn.id}` },
            { name: "to", label: "To", type: "date", id: `to-${conn.id}` },
          ]}
        />
      )}
    </div>
  );
}

export function registerAwsConnectionPages(app: Hono<ConsoleEnv>) {
  const back = (done: string, id: string, extra: Record<string, string | number> = {}) =>
    `/console/aws-connections?${new URLSearchParams({ done, id, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) })}`;
  app.get("/aws-connections", (c) => render(c, {}));

  formAction(app, "/aws-connections", {
    fields: AWS_FIELDS,
    run: manage((deps, principal, _id, v) => {
      // Only the chosen sign-in's credentials go to the service (its body is strict).
      const { roleArn, accessKeyId, secretAccessKey, ...rest } = v;
      const credentials: Record<string, string> =
        v.authType === "ROLE" ? { roleArn: roleArn ?? "" } : { accessKeyId: accessKeyId ?? "", secretAccessKey: secretAccessKey ?? "" };
      return createAwsConnection(deps, principal, parseForm(CreateAwsConnectionBody, bodyOf({ ...rest, ...credentials })));
    }),
    done: (_c, conn) => back("connected", (conn as Connection).id),
    render,
  });

  formAction(app, "/aws-connections/:id/verify", {
    run: manage((deps, principal, id) => verifyAwsConnection(deps, principal, id)),
    done: (c) => back("verified", c.req.param("id") ?? ""),
    render,
  });

  formAction(app, "/aws-connections/:id/sync", {
    fields: ["from", "to"],
    run: manage((deps, principal, id, v) => syncAwsConnection(deps, principal, id, parseForm(SyncBody, bodyOf(v)))),
    done: (c, result) => {
      const r = result as Awaited<ReturnType<typeof syncAwsConnection>>;
      const id = c.req.param("id") ?? "";
      if (!r.ok) return back("sync-failed", id);
      return back("synced", id, { from: r.from, to: r.to, ...Object.fromEntries(SYNC_COUNTS.map((k) => [k, r[k]])) });
    },
    render,
  });

  for (const [name, disabled] of [
    ["disable", true],
    ["enable", false],
  ] as const)
    formAction(app, `/aws-connections/:id/${name}`, {
      run: manage((deps, principal, id) => updateAwsConnection(deps, principal, id, { disabled })),
      done: (c) => back(`${name}d`, c.req.param("id") ?? ""),
      render,
    });

  registerAwsConnectionEditPages(app, back);
}
