// How long each per-organization log keeps its rows: the defaults and the bounds an organization may
// choose within (PUT /api/v1/organizations/current/retention). The one place these numbers live.

export const LOG_KINDS = ["gatewayApiLogDays", "webhookAttemptDays", "auditLogDays"] as const;
export type LogRetentionField = (typeof LOG_KINDS)[number];
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
