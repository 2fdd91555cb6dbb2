// The one way to reach an organization's log store: its OrgLogDO, named by the organization id. Callers
// pass the organization of the authenticated principal (or of the stored row being logged), so another
// organization's store is never addressed.
import type { Env } from "../../config";

export const orgLogs = (env: Pick<Env, "ORG_LOGS">, organizationId: string) => env.ORG_LOGS.get(env.ORG_LOGS.idFromName(organizationId));
