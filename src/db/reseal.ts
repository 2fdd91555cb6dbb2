// The re-seal sweep of a SECRETS_ENCRYPTION_KEY rotation: every value sealed at rest with a previous key (or before
// key ids existed, `v1.`) is opened and sealed again with the current key, at most LIMITS.resealBatchRows per column
// per run, so one cron run stays small however many there are. Each rewrite is conditional on the value being
// unchanged since it was read (a concurrent rotation of a webhook secret wins). Once a run finds nothing left, the
// previous key opens nothing any more and can be removed (docs/operating.md: Rotating SECRETS_ENCRYPTION_KEY).
import { type Env, LIMITS } from "../config";
import { logLine, summarizeError } from "../lib/log";
import { currentSealPrefix, openSecret, outdatedSealPrefixes, rotationInProgress, type SecretKeys, sealSecret } from "../lib/secret-box";

/** What the sweep needs of the environment: the database and the keys. */
export type ResealEnv = Pick<Env, "DB"> & SecretKeys;

/** One sealed column: its table, a unique key, and the context (additional data) each value was sealed with. */
export interface SealedColumn {
  table: string;
  key: string;
  column: string;
  /** SQL giving the context the value was sealed with (see each sealSecret call). */
  context: string;
}

/** Every column that holds a sealed value. Add one here with its sealSecret call. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "gateway_accounts", key: "id", column: "upstream_key_sealed", context: "id" },
  { table: "webhook_endpoints", key: "id", column: "secret_sealed", context: "id" },
  { table: "webhook_endpoints", key: "id", column: "previous_secret_sealed", context: "id" },
  { table: "aws_connections", key: "id", column: "secret_access_key_sealed", context: "id" },
  {
    table: "idempotency_keys",
    key: "rowid",
    column: "response_body",
    context: "'idempotency:' || organization_id || ':' || credential_id || ':' || key",
  },
];

export interface ResealReport {
  /** Values rewritten with the current key in this run. */
  resealed: number;
  /** Values that opened with no configured key (left as they are; each is logged by table and key). */
  unopenable: number;
  /** True when some column had more outdated values than one run rewrites. */
  more: boolean;
}

interface Outdated {
  k: string | number;
  sealed: string;
  context: string;
}

async function resealColumn(env: ResealEnv, col: SealedColumn, prefixes: string[], batchRows: number): Promise<ResealReport> {
  const db = env.DB;
  // The prefixes are `v1.` and `v2.<8 characters>.`: compared with substr, never LIKE (`_` is a LIKE wildcard).
  const match = prefixes.map((p, i) => `substr(${col.column}, 1, ${p.length}) = ?${i + 2}`).join(" OR ");
  const { results } = await db
    .prepare(
      `SELECT ${col.key} AS k, ${col.column} AS sealed, ${col.context} AS context FROM ${col.table} WHERE ${col.column} IS NOT NULL AND (${match}) LIMIT ?1`,
    )
    .bind(batchRows + 1, ...prefixes)
    .all<Outdated>();
  const batch = results.slice(0, batchRows);
  const updates: D1PreparedStatement[] = [];
  let unopenable = 0;
  for (const row of batch) {
    try {
      const plain = await openSecret(env, row.sealed, row.context);
      const sealed = await sealSecret(env, plain, row.context);
      updates.push(
        db
          .prepare(`UPDATE ${col.table} SET ${col.column} = ?1 WHERE ${col.key} = ?2 AND ${col.column} = ?3`)
          .bind(sealed, row.k, row.sealed),
      );
    } catch (err) {
      unopenable++;
      logLine("error", "a sealed value opens with no configured key", {
        table: col.table,
        column: col.column,
        key: row.k,
        error: summarizeError(err),
      });
    }
  }
  const written = updates.length > 0 ? await db.batch(updates) : [];
  const resealed = written.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
  return { resealed, unopenable, more: results.length > batchRows };
}

/**
 * One run of the sweep. Nothing to do (no query at all) unless SECRETS_ENCRYPTION_KEY_PREVIOUS is set. Logs what
 * it rewrote, and, when no outdated value is left, that the previous key can be removed.
 */
export async function resealOutdatedSecrets(env: ResealEnv, batchRows: number = LIMITS.resealBatchRows): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, unopenable: 0, more: false };
  if (!rotationInProgress(env)) return report;
  const prefixes = await outdatedSealPrefixes(env);
  for (const col of SEALED_COLUMNS) {
    const r = await resealColumn(env, col, prefixes, batchRows);
    report.resealed += r.resealed;
    report.unopenable += r.unopenable;
    report.more ||= r.more;
  }
  const current = (await currentSealPrefix(env)).slice(3, -1);
  if (report.resealed > 0 || report.more) {
    logLine("info", "secrets re-sealed with the current key", { currentKeyId: current, ...report });
  } else if (report.unopenable === 0) {
    logLine("info", "every sealed value uses the current key: SECRETS_ENCRYPTION_KEY_PREVIOUS can be removed", {
      currentKeyId: current,
    });
  }
  return report;
}
