import { z } from "@hono/zod-openapi";
import { EVENT_KINDS, isEventKind } from "../../events/kinds";
import { Instant } from "../../http/dates";

/** A subscription entry: an exact kind (`payment.received`, `upstream.PAYMENT_SPLIT_DIVERGENCE_BLOCK`), `upstream.*`, or `*`. */
export const SubscribedKind = z
  .string()
  .refine((k) => k === "*" || k === "upstream.*" || (isEventKind(k) && k !== "ping"), {
    message: `must be one of ${EVENT_KINDS.join(", ")}, upstream.<EVENT>, upstream.* or *`,
  })
  .openapi({ example: "payment.received" });

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    object: z.literal("webhook_endpoint"),
    url: z.string().openapi({ example: "https://merchant.example.com/webhooks/ponte" }),
    description: z.string().nullable(),
    eventKinds: z.array(z.string()),
    enabled: z.boolean(),
    disabledReason: z.enum(["consecutive_failures", "manual"]).nullable(),
    disabledAt: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    secretRotatedAt: z
      .string()
      .nullable()
      .openapi({ description: "When the signing secret was last rotated; the secret itself is never shown again." }),
    previousSecretExpiresAt: z
      .string()
      .nullable()
      .openapi({ description: "Until then deliveries also carry a v1 signature made with the previous secret." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("WebhookEndpoint");

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z
    .string()
    .openapi({ description: "The signing secret (`whsec_…`). Shown only in this response; store it now.", example: "whsec_…" }),
}).openapi("WebhookEndpointWithSecret");

const Url = z.string().min(1).max(2048);
const Description = z.string().trim().max(500).nullable();
const Kinds = z.array(SubscribedKind).min(1).max(64);

export const CreateWebhookEndpointBody = z
  .strictObject({
    url: Url,
    description: Description.optional(),
    eventKinds: Kinds,
    enabled: z.boolean().optional().openapi({ description: "Default true." }),
  })
  .openapi("CreateWebhookEndpoint");

export const UpdateWebhookEndpointBody = z
  .strictObject({ url: Url.optional(), description: Description.optional(), eventKinds: Kinds.optional(), enabled: z.boolean().optional() })
  .openapi("UpdateWebhookEndpoint");

export const RecoverBody = z
  .strictObject({
    since: Instant.openapi({ description: "Re-queue failed deliveries created at or after this instant." }),
  })
  .openapi("RecoverWebhookDeliveries");

export const RecoverResult = z
  .object({ object: z.literal("webhook_recovery"), endpointId: z.uuid(), since: z.string(), requeued: z.number().int() })
  .openapi("WebhookRecovery");

export const AttemptResult = z
  .object({
    object: z.literal("webhook_attempt"),
    id: z.uuid(),
    deliveryId: z.uuid(),
    trigger: z.enum(["automatic", "manual", "test"]),
    attemptedAt: z.string(),
    succeeded: z.boolean(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    errorKind: z.enum(["timeout", "network", "http_status", "redirect", "url_policy"]).nullable(),
    errorMessage: z.string().nullable(),
    responseExcerpt: z.string().nullable().openapi({ description: "The first 1 KiB of the response body." }),
  })
  .openapi("WebhookAttempt");

export const EndpointIdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
