// Console session cookies as a credential. Until the console's sessions exist there is none to accept.
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";
import type { Principal } from "./principal";

export async function sessionPrincipal(_c: Context<AppEnv>): Promise<Principal | null> {
  return null;
}
