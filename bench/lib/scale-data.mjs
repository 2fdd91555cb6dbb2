// bench:scale's data: a workspace at 100× the demo plus other organizations, written straight into the local
// D1's SQLite file (node:sqlite, one transaction each: far faster than `wrangler d1 execute`), then measured
// per table with SQLite's dbstat. The realistic rows come from the demo generator (scripts/lib/demo-history.mjs).
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { demoHistorySql } from "../../scripts/lib/demo-history.mjs";
import { uuidv7 } from "../../scripts/lib/local.mjs";

/** The local D1 database file of a `--persist-to` state directory (the one miniflare keeps for binding DB). */
export function d1File(state) {
  const dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.join(", ") || "none"}`);
  return join(dir, files[0]);
}

export const openD1 = (file, readOnly = false) => new DatabaseSync(file, { readOnly });

function inTransaction(db, fn) {
  db.exec("BEGIN");
  try {
    fn();
    db.exec("COMMIT");
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
}

/** The demo history at `scale` for a tenant (ids kept apart by `space`), executed in one transaction. */
export function writeHistory(db, { organizationId, workspaceId, scale, space, seed }) {
  const history = demoHistorySql({ organizationId, workspaceId, scale, space, seed });
  inTransaction(db, () => db.exec(history.sql));
  return history.counts;
}

/** Another organization with its workspace and the default cost categories (copied from `fromWorkspaceId`). */
export function writeOrganization(db, { organizationId, workspaceId, name, fromWorkspaceId, createdAt }) {
  inTransaction(db, () => {
    db.prepare("INSERT INTO organizations (id, name, default_workspace_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").run(
      organizationId,
      name,
      workspaceId,
      createdAt,
      createdAt,
    );
    db.prepare("INSERT INTO workspaces (id, organization_id, name, created_at, updated_at) VALUES (?, ?, 'Default', ?, ?)").run(
      workspaceId,
      organizationId,
      createdAt,
      createdAt,
    );
    const columns = db
      .prepare("SELECT name FROM pragma_table_info('cost_categories')")
      .all()
      .map((c) => c.name);
    const picked = columns.map((c) =>
      c === "id" ? "lower(hex(randomblob(16)))" : c === "organization_id" ? "?1" : c === "workspace_id" ? "?2" : c,
    );
    db.prepare(
      `INSERT INTO cost_categories (${columns.join(", ")}) SELECT ${picked.join(", ")} FROM cost_categories WHERE workspace_id = ?3 AND parent_id IS NULL`,
    ).run(organizationId, workspaceId, fromWorkspaceId);
  });
}

const OPERATIONS = [
  ["listar-cobrancas", "GET", "/v3/payments"],
  ["criar-nova-cobranca", "POST", "/v3/payments"],
  ["recuperar-uma-unica-cobranca", "GET", "/v3/payments/pay_000000000001"],
  ["listar-clientes", "GET", "/v3/customers"],
  ["recuperar-saldo-da-conta", "GET", "/v3/finance/balance"],
];

/**
 * The API-call log rows (`n` of them, spread evenly from `fromMs` to `toMs`) where a deployment from before the
 * per-organization log stores holds them: D1's gateway_api_logs. bench:scale then moves them into the
 * organizations' OrgLogDO stores the way a deployment does — the `log-copy` cron (src/db/org-logs/copy.ts),
 * fired through wrangler dev's /cdn-cgi/local/scheduled — and drops the old table (migrations-deferred/0024).
 */
export function writeLogRows(db, { organizationId, workspaceId, gatewayAccountId, n, fromMs, toMs }) {
  const insert = db.prepare(
    `INSERT INTO gateway_api_logs (id, organization_id, workspace_id, gateway_account_id, operation_id, method, surface_path,
       upstream_path, upstream_status, latency_ms, error_code, request_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const step = (toMs - fromMs) / n;
  const batch = 50_000;
  for (let start = 0; start < n; start += batch) {
    inTransaction(db, () => {
      for (let i = start; i < Math.min(n, start + batch); i++) {
        const [operationId, method, path] = OPERATIONS[i % OPERATIONS.length];
        const status = i % 97 === 0 ? 400 : method === "POST" ? 201 : 200;
        const at = new Date(fromMs + i * step).toISOString();
        insert.run(
          uuidv7(),
          organizationId,
          workspaceId,
          gatewayAccountId,
          operationId,
          method,
          path.replace("/v3", "/api/v1"),
          path,
          status,
          20 + (i % 180),
          status === 400 ? "invalid_value" : null,
          `req_${i.toString(36).padStart(10, "0")}`,
          at,
        );
      }
    });
  }
}

/** Events as the outbox writes them: one `payment.created` per charge of the workspace (its JSON as the API shows a charge). */
export function writeEvents(db, { organizationId, workspaceId, limit }) {
  const columns = db
    .prepare("SELECT name FROM pragma_table_info('events')")
    .all()
    .map((c) => c.name);
  const rows = db
    .prepare("SELECT id, customer_id, value_cents, due_date, status, billing_type, created_at FROM payments WHERE workspace_id = ? LIMIT ?")
    .all(workspaceId, limit);
  const values = (p) => ({
    id: uuidv7(),
    organization_id: organizationId,
    workspace_id: workspaceId,
    type: "payment.created",
    data: JSON.stringify({
      object: "payment",
      id: p.id,
      customer: p.customer_id,
      value: (p.value_cents / 100).toFixed(2),
      dueDate: p.due_date,
      status: p.status,
      billingType: p.billing_type,
      origin: "api",
      createdAt: p.created_at,
    }),
    created_at: p.created_at,
    fanned_out_at: p.created_at,
  });
  const insert = db.prepare(`INSERT INTO events (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
  inTransaction(db, () => {
    for (const p of rows) {
      const v = values(p);
      insert.run(...columns.map((c) => v[c] ?? null));
    }
  });
  return rows.length;
}

/** A console user who owns `organizationId`, with a live session: the `Cookie` header to send. */
export function writeConsoleSession(db, { organizationId }) {
  const now = new Date().toISOString();
  const userId = uuidv7();
  const token = randomBytes(32).toString("base64url");
  inTransaction(db, () => {
    db.prepare("INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, 'Bench', 'x', ?, ?)").run(
      userId,
      `bench-${userId}@example.com`,
      now,
      now,
    );
    db.prepare("INSERT INTO memberships (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, 'owner', ?, ?)").run(
      uuidv7(),
      organizationId,
      userId,
      now,
      now,
    );
    db.prepare("INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)").run(
      uuidv7(),
      userId,
      createHash("sha256").update(token).digest("hex"),
      now,
      new Date(Date.now() + 86_400_000).toISOString(),
    );
  });
  return `ponte_session=${token}`;
}

/** Bytes on disk per table, its indexes included (dbstat), and its row count. */
export function tableSizes(db) {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .all()
    .map((t) => t.name);
  const owner = new Map(
    db
      .prepare("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")
      .all()
      .map((r) => [r.name, r.tbl_name]),
  );
  const bytes = new Map();
  for (const r of db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all()) {
    const table = owner.get(r.name) ?? r.name;
    bytes.set(table, (bytes.get(table) ?? 0) + Number(r.bytes));
  }
  const out = {};
  for (const t of tables) {
    const rows = Number(db.prepare(`SELECT count(*) AS n FROM "${t}"`).get().n);
    out[t] = { rows, bytes: bytes.get(t) ?? 0, bytesPerRow: rows ? Math.round((bytes.get(t) ?? 0) / rows) : null };
  }
  return out;
}

/** Tenant tables: those whose rows carry organization_id or workspace_id (the plan rule's scope). */
export function tenantTables(db) {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((t) => t.name);
  return new Set(
    names.filter((t) =>
      db
        .prepare(`SELECT name FROM pragma_table_info('${t}')`)
        .all()
        .some((c) => c.name === "organization_id" || c.name === "workspace_id"),
    ),
  );
}

/** Where the one-off log copy stands: `{ [source_table]: { copiedRows, done } }` (log_copy_progress). */
export function logCopyProgress(file) {
  const db = openD1(file, true);
  try {
    const rows = db.prepare("SELECT source_table, copied_rows, done_at FROM log_copy_progress").all();
    return Object.fromEntries(rows.map((r) => [r.source_table, { copiedRows: Number(r.copied_rows), done: r.done_at !== null }]));
  } finally {
    db.close();
  }
}

/** Applies the deferred migration that drops D1's old log tables (run only once the copy reports done). */
export function dropOldLogTables(file) {
  const sql = readFileSync(new URL("../../migrations-deferred/0024_drop_old_logs.sql", import.meta.url), "utf8");
  const db = openD1(file);
  try {
    inTransaction(db, () => db.exec(sql.replaceAll("--> statement-breakpoint", "")));
  } finally {
    db.close();
  }
}

/**
 * The organizations' log stores (each OrgLogDO's SQLite file under the state directory): for the store holding
 * the most API-call rows, its rows and bytes per row of that table with its indexes (dbstat), and the stores' count.
 */
export function logStoreSizes(state) {
  const root = join(state, "v3", "do");
  const dirs = existsSync(root) ? readdirSync(root).filter((d) => d.includes("OrgLogDO")) : [];
  let largest = null;
  let stores = 0;
  for (const dir of dirs)
    for (const f of readdirSync(join(root, dir)).filter((x) => x.endsWith(".sqlite") && x !== "metadata.sqlite")) {
      stores++;
      const db = openD1(join(root, dir, f), true);
      try {
        const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'gateway_api_logs'").get();
        if (!hasTable) continue;
        const rows = Number(db.prepare("SELECT count(*) AS n FROM gateway_api_logs").get().n);
        if (largest && rows <= largest.rows) continue;
        const bytes = Number(
          db
            .prepare(
              "SELECT sum(pgsize) AS b FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'gateway_api_logs')",
            )
            .get().b,
        );
        largest = { rows, bytes, bytesPerRow: rows ? Math.round(bytes / rows) : null };
      } finally {
        db.close();
      }
    }
  return { stores, largest };
}
