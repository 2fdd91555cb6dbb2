// The one way to reach an endpoint's EndpointDO: one object per webhook endpoint, named by its id.
import type { Env } from "../config";

export const endpointStub = (env: Pick<Env, "ENDPOINT_DO">, endpointId: string) =>
  env.ENDPOINT_DO.get(env.ENDPOINT_DO.idFromName(endpointId));
