// An edit form shows a record's current values; what it sends the service is only what the person changed,
// so an untouched field never re-runs a rule that only a change should (a recurrence's backdate limit, a
// connection's credentials reset), and an emptied optional field means "clear it" (null).
import { requirePermission } from "../../access/principal";
import type { ConsoleContext } from "../context";

/** The posted values that differ from `shown` (what the form displayed): "" becomes null for `nullable` names. */
export function changedBody(
  values: Record<string, string>,
  shown: Record<string, string>,
  nullable: readonly string[] = [],
): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === (shown[name] ?? "")) continue;
    body[name] = value === "" && nullable.includes(name) ? null : value;
  }
  return body;
}

/**
 * The session of a finance write, refused first (403) without `finance.manage`, as the API's guard refuses
 * before it reads a body: a forged form from a viewer learns nothing about what it sent.
 */
export function managing(c: ConsoleContext) {
  const session = c.get("console");
  requirePermission(session.principal, "finance.manage");
  return session;
}
