// Shared pieces of the console's data pages: permission checks, dates, status badges (the table, paging and filter
// bar are ../parts/).
import type { Permission } from "../../lib/permissions";
import type { ConsoleContext } from "../context";

export const can = (c: ConsoleContext, permission: Permission) => c.get("console").principal.permissions.has(permission);

export const when = (iso: string | null | undefined) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");

const BADGE: Record<string, string> = {
  RECEIVED: "ok",
  CONFIRMED: "ok",
  RECEIVED_IN_CASH: "ok",
  ACTIVE: "ok",
  active: "ok",
  OVERDUE: "warn",
  PENDING: "",
  REFUNDED: "warn",
  CANCELED: "bad",
  INACTIVE: "bad",
  EXPIRED: "bad",
  archived: "bad",
};
export const Badge = ({ value }: { value: string }) => <span class={`badge ${BADGE[value] ?? ""}`}>{value}</span>;
