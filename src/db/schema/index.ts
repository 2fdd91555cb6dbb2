// The whole D1 schema; `drizzle-kit generate` reads this file to write migrations/.
export * from "./tenancy";
export * from "./events";
export * from "./gateway";
export * from "./billing";
export * from "./webhooks";
export * from "./console";
export * from "./members";
export * from "./finance";
export * from "./aws";
export * from "./analytics";
export * from "./log-copy";
