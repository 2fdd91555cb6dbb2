// The deployment environments and the API-key environment each accepts.

export type Environment = "production" | "sandbox" | "local";

/** Which API keys a host accepts: production takes live keys, sandbox and local take test keys. */
export type KeyEnvironment = "live" | "test";

export function keyEnvironmentFor(environment: Environment): KeyEnvironment {
  return environment === "production" ? "live" : "test";
}
