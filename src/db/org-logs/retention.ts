// How long each log of an organization keeps its rows: the defaults and the bounds an organization may
// choose within (PATCH /api/v1/organizations/current/retention). The one place these numbers live. All
// three logs (the audit trail once forwarded from its D1 staging rows) are pruned by the organization's
// OrgLogDO alarm.

export type LogRetentionField = "gatewayApiLogDays" | "webhookAttemptDays" | "auditLogDays";
export type LogRetention = Record<LogRetentionField, number>;

export const RETENTION_DEFAULTS: LogRetention = { gatewayApiLogDays: 30, webhookAttemptDays: 90, auditLogDays: 400 };

export const RETENTION_BOUNDS: Record<LogRetentionField, { min: number; max: number }> = {
  gatewayApiLogDays: { min: 1, max: 400 },
  webhookAttemptDays: { min: 7, max: 400 },
  auditLogDays: { min: 30, max: 2555 },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant (ISO UTC) at or before which a row of a log kept `days` days is past its period. */
export const retentionCutoff = (now: Date, days: number): string => new Date(now.getTime() - days * DAY_MS).toISOString();
