// The permission table: `<resource>.read` and `<resource>.manage` for every resource; manage implies read.
// Console roles map onto it here too, so there is one place that says who may do what.

export const RESOURCES = [
  "organizations",
  "workspaces",
  "api_keys",
  "audit_logs",
  "members",
  "customers",
  "plans",
  "payments",
  "payment_methods",
  "subscriptions",
  "gateway_accounts",
  "webhook_endpoints",
  /** Cost categories, suppliers, expenses, AWS connections (PLATFORM.md). */
  "finance",
  /** Metrics, formulas, profitability, dashboard (PLATFORM.md); manage = write formulas, rebuild rollups. */
  "analytics",
] as const;

export type Resource = (typeof RESOURCES)[number];
export type Permission = `${Resource}.read` | `${Resource}.manage`;

export const PERMISSIONS: readonly Permission[] = RESOURCES.flatMap((r) => [`${r}.read`, `${r}.manage`] as Permission[]);
const PERMISSION_SET: ReadonlySet<string> = new Set(PERMISSIONS);

export function isPermission(value: string): value is Permission {
  return PERMISSION_SET.has(value);
}

const expandedByStoredList = new Map<string, ReadonlySet<Permission>>();

/** A key's stored permission list (JSON), expanded; memoised, since every request of a key needs it and keys share few distinct lists. */
export function expandStoredPermissions(json: string): ReadonlySet<Permission> {
  let expanded = expandedByStoredList.get(json);
  if (!expanded) {
    if (expandedByStoredList.size >= 1_000) expandedByStoredList.clear();
    expanded = expandPermissions(JSON.parse(json) as string[]);
    expandedByStoredList.set(json, expanded);
  }
  return expanded;
}

/** Expands a granted list so that `x.manage` also grants `x.read`. */
export function expandPermissions(granted: readonly string[]): ReadonlySet<Permission> {
  const out = new Set<Permission>();
  for (const p of granted) {
    if (!isPermission(p)) continue;
    out.add(p);
    if (p.endsWith(".manage")) out.add(p.replace(/\.manage$/, ".read") as Permission);
  }
  return out;
}

export type Role = "owner" | "admin" | "developer" | "viewer";
export const ROLES: readonly Role[] = ["owner", "admin", "developer", "viewer"];

const READ_ALL = RESOURCES.map((r) => `${r}.read` as Permission);
const MANAGE = (rs: readonly Resource[]) => rs.map((r) => `${r}.manage` as Permission);

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: [...READ_ALL, ...MANAGE(RESOURCES.filter((r) => r !== "organizations"))],
  developer: [
    // Developers run the integration, not the books: no finance access (PLATFORM.md).
    ...READ_ALL.filter((p) => p !== "members.read" && p !== "finance.read"),
    ...MANAGE(["api_keys", "customers", "plans", "payments", "payment_methods", "subscriptions", "gateway_accounts", "webhook_endpoints"]),
  ],
  viewer: READ_ALL.filter((p) => p !== "members.read" && p !== "audit_logs.read"),
};

/** Each role's permission set, expanded once (a console session is one of these on every request). */
export const ROLE_PERMISSION_SETS: Record<Role, ReadonlySet<Permission>> = Object.fromEntries(
  ROLES.map((role) => [role, expandPermissions(ROLE_PERMISSIONS[role])]),
) as Record<Role, ReadonlySet<Permission>>;
