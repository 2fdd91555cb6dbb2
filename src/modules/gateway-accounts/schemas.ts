import { z } from "@hono/zod-openapi";
import { UPSTREAM_KEY_PATTERN, UPSTREAM_KEY_RULE } from "../../gateway/client";

export const GatewayAccount = z
  .object({
    id: z.uuid(),
    object: z.literal("gateway_account"),
    workspaceId: z.uuid(),
    environment: z.enum(["live", "test"]),
    upstreamKeyLast4: z.string().openapi({ example: "a1B2" }),
    status: z
      .enum(["unverified", "active", "invalid_credentials"])
      .openapi({ description: "unverified until POST …/verify succeeds; invalid_credentials when the upstream refused the key." }),
    verifiedAt: z.string().nullable(),
    inboundWebhookUrl: z
      .string()
      .openapi({ description: "Where the upstream sends this account's events (configured on the upstream for you)." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("GatewayAccount");

const UpstreamWebhook = z.object({
  configured: z.boolean().openapi({ description: "Whether the upstream's webhook now points at inboundWebhookUrl with this token." }),
  errorCode: z.string().optional().openapi({ description: "Why not, when it did not work; rotate the token to retry." }),
});

export const GatewayAccountWithToken = GatewayAccount.extend({
  inboundWebhookToken: z
    .string()
    .openapi({ description: "The token the upstream must send in `asaas-access-token`. Shown only in this response." }),
  upstreamWebhook: UpstreamWebhook,
}).openapi("GatewayAccountWithToken");

export const DeletedGatewayAccount = GatewayAccount.extend({
  upstreamWebhook: z.object({
    removed: z.boolean().openapi({
      description: "Whether the upstream no longer has a webhook config pointing at inboundWebhookUrl (best effort, with the deleted key).",
    }),
    errorCode: z
      .string()
      .optional()
      .openapi({ description: "Why not, when it did not work; remove the config in the upstream's dashboard." }),
  }),
}).openapi("DeletedGatewayAccount");

const UpstreamApiKey = z
  .string()
  .regex(UPSTREAM_KEY_PATTERN, UPSTREAM_KEY_RULE)
  .openapi({ description: "The upstream account's API key (`$aact_…`). Stored encrypted; never returned.", example: "$aact_hmlg_000…" });

export const CreateGatewayAccountBody = z.strictObject({ upstreamApiKey: UpstreamApiKey }).openapi("CreateGatewayAccount");
export const UpdateGatewayAccountBody = z.strictObject({ upstreamApiKey: UpstreamApiKey }).openapi("UpdateGatewayAccount");

export const GatewayAccountIdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
