// What the API answers, as tests read it: the wire types come from the same zod schemas (or
// presenters) the routes document, so a renamed or removed field fails type-checking in the tests too.
import type { z } from "@hono/zod-openapi";
import type { ApiKey as ApiKeySchema, ApiKeyWithSecret as ApiKeyWithSecretSchema } from "../../src/modules/api-keys/schemas";
import type { Customer as CustomerSchema } from "../../src/modules/customers/schemas";
import type {
  GatewayAccount as GatewayAccountSchema,
  GatewayAccountWithToken as GatewayAccountWithTokenSchema,
  DeletedGatewayAccount as DeletedGatewayAccountSchema,
} from "../../src/modules/gateway-accounts/schemas";
import type {
  Invitation as InvitationSchema,
  InvitationAccepted as InvitationAcceptedSchema,
  InvitationWithLink as InvitationWithLinkSchema,
  Member as MemberSchema,
  RemovedMember as RemovedMemberSchema,
} from "../../src/modules/members/schemas";
import type { Payment as PaymentSchema, PixQrCode as PixQrCodeSchema, Refund as RefundSchema } from "../../src/modules/payments/schemas";
import type { Plan as PlanSchema } from "../../src/modules/plans/service";
import type { Subscription as SubscriptionSchema } from "../../src/modules/subscriptions/schemas";
import type {
  AttemptResult as AttemptResultSchema,
  RecoverResult as RecoverResultSchema,
  WebhookEndpoint as WebhookEndpointSchema,
  WebhookEndpointWithSecret as WebhookEndpointWithSecretSchema,
} from "../../src/modules/webhook-endpoints/schemas";
import type {
  WebhookDeliveryDetail as WebhookDeliveryDetailSchema,
  WebhookDelivery as WebhookDeliverySchema,
} from "../../src/modules/webhook-logs/routes";
import type { presentGatewayApiLog } from "../../src/modules/gateway-api-logs/service";
import type { presentOrganization } from "../../src/modules/organizations/service";
import type { presentWorkspace } from "../../src/modules/workspaces/service";
import type { User as UserSchema } from "../../src/modules/accounts/schemas";
import type { Me as MeSchema, SessionStarted as SessionStartedSchema } from "../../src/modules/accounts/routes";
import type { AuditLog as AuditLogSchema } from "../../src/modules/audit/routes";
import type { PaymentMethod as PaymentMethodSchema } from "../../src/modules/payment-methods/service";
import type { PaymentStatusView as PaymentStatusViewSchema } from "../../src/modules/payments/schemas";
import type { Envelope, ErrorBody } from "./support";

/**
 * A response body as a test reads it: `data` on success, `error` on failure. Which one is there is
 * what the test's status assertion decides, so both are typed as present.
 */
export type Reply<T> = Envelope<T> & ErrorBody;

export type ApiKey = z.output<typeof ApiKeySchema>;
export type ApiKeyWithSecret = z.output<typeof ApiKeyWithSecretSchema>;
export type Customer = z.output<typeof CustomerSchema>;
export type GatewayAccount = z.output<typeof GatewayAccountSchema>;
export type GatewayAccountWithToken = z.output<typeof GatewayAccountWithTokenSchema>;
export type Invitation = z.output<typeof InvitationSchema>;
export type InvitationWithLink = z.output<typeof InvitationWithLinkSchema>;
export type InvitationAccepted = z.output<typeof InvitationAcceptedSchema>;
export type Member = z.output<typeof MemberSchema>;
export type Payment = z.output<typeof PaymentSchema>;
export type PixQrCode = z.output<typeof PixQrCodeSchema>;
export type Refund = z.output<typeof RefundSchema>;
export type Plan = z.output<typeof PlanSchema>;
export type Subscription = z.output<typeof SubscriptionSchema>;
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export type WebhookEndpointWithSecret = z.output<typeof WebhookEndpointWithSecretSchema>;
export type AttemptResult = z.output<typeof AttemptResultSchema>;
export type RecoverResult = z.output<typeof RecoverResultSchema>;
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;
export type User = z.output<typeof UserSchema>;
export type GatewayApiLog = ReturnType<typeof presentGatewayApiLog>;
export type Organization = ReturnType<typeof presentOrganization>;
export type Workspace = ReturnType<typeof presentWorkspace>;

/** A JSON object whose shape the test does not name (an upstream answer passed through as is). */
export type JsonObject = { [key: string]: unknown };
export type SessionStarted = z.output<typeof SessionStartedSchema>;
export type Me = z.output<typeof MeSchema>;
/** `GET /health` and `GET /health/ready`. */
export interface Health {
  status: "ok" | "degraded";
  environment: string;
  version: string;
  database?: string;
  migrations?: number;
}
/** Passthrough answers carry the upstream's JSON with Ponte's `meta.upstream` beside it. */
export interface UpstreamMeta {
  upstream: { status: number; durationMs: number };
}
/** A passthrough answer: the upstream's JSON as `data`, Ponte's `meta.upstream` beside it. */
export type Passthrough<T = JsonObject> = Envelope<T> & ErrorBody & { meta: UpstreamMeta };
/** `POST /webhooks/upstream/{accountId}`. */
export interface UpstreamWebhookReceipt {
  received: boolean;
  duplicate: boolean;
}
export type AuditLog = z.output<typeof AuditLogSchema>;
export type PaymentMethod = z.output<typeof PaymentMethodSchema>;
export type PaymentStatusView = z.output<typeof PaymentStatusViewSchema>;
export type WebhookDeliveryDetail = z.output<typeof WebhookDeliveryDetailSchema>;
export type DeletedGatewayAccount = z.output<typeof DeletedGatewayAccountSchema>;
/** The simulator's echo of a multipart upload (`POST /payments/{id}/documents`). */
export interface UploadEcho {
  files: { field: string; name: string; size: number; type: string }[];
  fields: Record<string, string>;
}
export type RemovedMember = z.output<typeof RemovedMemberSchema>;
