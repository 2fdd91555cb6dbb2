// AWS connections: connect an account (access key, or a role Ponte assumes), Verify it, Sync its costs
// into expenses, and read each connection's status and last error. Every action calls the
// aws-connections services; the secret access key is a password field and is never shown back.
import type { Hono } from "hono";
import { SyncBody, syncAwsConnection } from "../modules/aws-connections/cost-import";
import { CreateAwsConnectionBody, createAwsConnection, listAwsConnections, verifyAwsConnection } from "../modules/aws-connections/service";
import { listCostCategories } from "../modules/cost-categories/service";
import { type ConsoleContext, type ConsoleEnv, renderingActions, parseForm, shellFor } from "./context";
import { Alert, Page } from "./layout";

type Connection = Awaited<ReturnType<typeof listAwsConnections>>["rows"][number];
type Category = Awaited<ReturnType<typeof listCostCategories>>["rows"][number];

interface PageState {
  error?: string | undefined;
  notice?: string | undefined;
}

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");
const BADGE: Record<Connection["status"], string> = { ACTIVE: "ok", FAILED: "bad", PENDING: "warn", DISABLED: "warn" };

function ConnectionRow({ conn, categories, canManage }: { conn: Connection; categories: Category[]; canManage: boolean }) {
  const category = categories.find((c) => c.id === conn.costCategoryId);
  return (
    <tr data-aws-connection={conn.id}>
      <td>
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
      </td>
      <td>
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
      </td>
      <td>
        {category ? category.name : conn.costCategoryId}
        <br />
        <span class="muted">R$ {conn.exchangeRate} per USD</span>
      </td>
      <td>
        {when(conn.lastSyncedAt)}
        <br />
        <span class="muted">through {conn.syncedThrough ?? "—"}</span>
      </td>
      <td>
        {canManage ? (
          <div class="actions">
            <form method="post" action={`/console/aws-connections/${conn.id}/verify`}>
              <button type="submit" class="secondary" aria-label={`Verify ${conn.name}`}>
                Verify
              </button>
            </form>
            <form method="post" action={`/console/aws-connections/${conn.id}/sync`}>
              <label for={`from-${conn.id}`}>From</label>
              <input id={`from-${conn.id}`} name="from" type="date" />
              <label for={`to-${conn.id}`}>To</label>
              <input id={`to-${conn.id}`} name="to" type="date" />
              <button type="submit" aria-label={`Sync ${conn.name}`}>
                Sync
              </button>
            </form>
          </div>
        ) : null}
      </td>
    </tr>
  );
}

function CreateForm({ categories }: { categories: Category[] }) {
  const choices = categories.filter((c) => !c.archived);
  const preferred = choices.find((c) => c.key === "infrastructure")?.id;
  return (
    <div class="card">
      <h2>Connect an AWS account</h2>
      <form method="post" action="/console/aws-connections">
        <label for="aws-name">Name</label>
        <input id="aws-name" name="name" type="text" required maxlength={120} />
        <label for="aws-auth-type">How Ponte signs in</label>
        <select id="aws-auth-type" name="authType">
          <option value="ROLE">A role Ponte assumes (recommended; an external id is generated for its trust policy)</option>
          <option value="ACCESS_KEY">An access key (read-only IAM user)</option>
        </select>
        <label for="aws-role-arn">Role ARN (role only)</label>
        <input
          id="aws-role-arn"
          name="roleArn"
          type="text"
          placeholder="arn:aws:iam::123456789012:role/PonteCostReader"
          spellcheck={false}
        />
        <label for="aws-access-key-id">Access key id (access key only)</label>
        <input id="aws-access-key-id" name="accessKeyId" type="text" autocomplete="off" spellcheck={false} />
        <label for="aws-secret">Secret access key (access key only)</label>
        <input id="aws-secret" name="secretAccessKey" type="password" autocomplete="off" spellcheck={false} />
        <p class="muted">Stored encrypted and never shown again.</p>
        <label for="aws-category">Cost category</label>
        <select id="aws-category" name="costCategoryId">
          {choices.map((c) => (
            <option value={c.id} selected={c.id === preferred}>
              {c.name}
            </option>
          ))}
        </select>
        <label for="aws-rate">Exchange rate (BRL per USD)</label>
        <input id="aws-rate" name="exchangeRate" type="text" inputmode="decimal" required placeholder="5.40" />
        <button type="submit">Connect</button>
      </form>
    </div>
  );
}

async function render(c: ConsoleContext, state: PageState = {}, status = 200) {
  const { deps, principal } = c.get("console");
  const [{ rows }, { rows: categories }] = await Promise.all([
    listAwsConnections(deps, principal, { limit: 100, offset: 0 }),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const canManage = principal.permissions.has("finance.manage");
  return c.html(
    <Page title="AWS connections" shell={shellFor(c, "/console/aws-connections")}>
      <h1>AWS connections</h1>
      <p class="muted">
        AWS accounts whose costs Ponte imports from Cost Explorer as expenses (one per day and service, in USD at the connection's rate).
        Active connections sync every day; Sync imports a range now (default: the last 30 days).
      </p>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {rows.length === 0 ? (
        <p class="muted">No AWS account connected to this workspace yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Connection</th>
              <th scope="col">Status</th>
              <th scope="col">Filed under</th>
              <th scope="col">Last sync</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((conn) => (
              <ConnectionRow conn={conn} categories={categories} canManage={canManage} />
            ))}
          </tbody>
        </table>
      )}
      {canManage ? <CreateForm categories={categories} /> : <p class="muted">Your role can see AWS connections but not change them.</p>}
    </Page>,
    status as 200,
  );
}

const text = (form: Record<string, unknown>, name: string) => {
  const v = form[name];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
};

export function registerAwsConnectionPages(app: Hono<ConsoleEnv>) {
  app.get("/aws-connections", (c) => render(c));

  const { action, idOf } = renderingActions<PageState>(app, "/aws-connections", render);
  const ctx = (c: ConsoleContext) => c.get("console");

  action(
    "",
    async (c, form) => {
      const authType = text(form, "authType");
      const input = parseForm(CreateAwsConnectionBody, {
        name: text(form, "name"),
        authType,
        ...(authType === "ROLE"
          ? { roleArn: text(form, "roleArn") }
          : { accessKeyId: text(form, "accessKeyId"), secretAccessKey: text(form, "secretAccessKey") }),
        costCategoryId: text(form, "costCategoryId"),
        exchangeRate: text(form, "exchangeRate"),
      });
      const conn = await createAwsConnection(ctx(c).deps, ctx(c).principal, input);
      return {
        notice:
          conn.authType === "ROLE"
            ? `Connected. Add the external id ${conn.externalId} to the role's trust policy, then press Verify.`
            : "Connected. Press Verify to check the key.",
      };
    },
    true,
  );
  action("/:id/verify", async (c) => {
    const conn = await verifyAwsConnection(ctx(c).deps, ctx(c).principal, idOf(c));
    return conn.status === "ACTIVE"
      ? { notice: `Verified: AWS account ${conn.awsAccountId}. The connection is active and syncs daily.` }
      : { error: `AWS refused: ${conn.lastError ?? "unknown error"}. The connection is marked failed.` };
  });
  action("/:id/sync", async (c, form) => {
    const input = parseForm(SyncBody, { from: text(form, "from"), to: text(form, "to") });
    const result = await syncAwsConnection(ctx(c).deps, ctx(c).principal, idOf(c), input);
    return result.ok
      ? {
          notice: `Synced ${result.from} to ${result.to} (${result.pages} page${result.pages === 1 ? "" : "s"}): ${result.created} new, ${result.updated} corrected, ${result.deleted} removed, ${result.unchanged} unchanged.`,
        }
      : { error: `The sync failed: ${result.connection.lastError ?? "unknown error"}. The connection is marked failed.` };
  });
}
