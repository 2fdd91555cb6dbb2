// Charges, refunds and PIX: the native Cobranças/Estornos catalogue rows plus the product-level
// `/pix` and `/cancel` routes (surface internal).
import { documentVariant } from "../../http/openapi";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { nativeOperation, permissionOf, successStatusOf } from "../../billing/native-route";
import { IdParam } from "../../billing/schemas";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList, routeGroup } from "../../http/envelope";
import { IDEMPOTENCY_HEADER } from "../../http/idempotency";
import { PaginationQuery, pagination } from "../../http/pagination";
import { listRefunds, refundCharge } from "./refunds";
import { CardChargeBody, Charge, ChargeListQuery, ChargeStatusView, CreateChargeBody, PixQrCode, Refund, RefundBody } from "./schemas";
import { cancelCharge, createCharge, getCharge, getChargeStatus, getPixQrCode, listCharges } from "./service";

const UPSTREAM_ERRORS = [502, 504] as const;
const one = (description: string) => ({ description, content: { "application/json": { schema: envelopeOf(Charge) } } });
const json = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });

const CREATE = "criar-nova-cobranca";
const CREATE_CARD = "criar-cobranca-com-cartao-de-credito";
const LIST = "listar-cobrancas";
const GET = "recuperar-uma-unica-cobranca";
const DELETE = "excluir-cobranca";
const STATUS = "recuperar-status-de-uma-cobranca";
const PIX_QR = "obter-qr-code-para-pagamentos-via-pix";
const REFUND = "estornar-cobranca";
const REFUNDS = "listar-estornos-de-uma-cobranca";
const CREATE_STATUS = successStatusOf(CREATE, 200);
const DELETE_STATUS = successStatusOf(DELETE, 200);
const REFUND_STATUS = successStatusOf(REFUND, 200);

const createResponses = {
  [CREATE_STATUS]: one("The charge. PIX and BOLETO start PENDING; an approved card is CONFIRMED."),
  ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
};
const create = createRoute({
  ...nativeOperation(CREATE),
  ...guard(permissionOf(CREATE)),
  description:
    "Creates the Ponte record, then the upstream charge (with the Ponte id as its externalReference). A refused card answers 400 and keeps a FAILED charge (see details.chargeId). An upstream timeout answers 504 but the charge exists with syncStatus pending; retrying with the same Idempotency-Key resumes it and never charges twice.",
  request: { body: json(CreateChargeBody) },
  responses: createResponses,
});
// The card variant shares the method and path (documented at the trailing-slash path, served by the route above).
const createCard = createRoute({
  ...nativeOperation(CREATE_CARD, { path: "/api/v1/payments/" }),
  ...guard(permissionOf(CREATE_CARD)),
  description: "Same operation as criar-nova-cobranca with billingType CREDIT_CARD and creditCardToken, or creditCard + creditCardHolderInfo (+ remoteIp). Card data goes straight to the upstream; Ponte keeps only token, brand and last 4.",
  request: { body: json(CardChargeBody) },
  responses: createResponses,
});
const list = createRoute({
  ...nativeOperation(LIST),
  ...guard(permissionOf(LIST)),
  request: { query: PaginationQuery.extend(ChargeListQuery.shape) },
  responses: { 200: { description: "A page of charges, newest first.", content: { "application/json": { schema: listEnvelopeOf(Charge) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const get = createRoute({
  ...nativeOperation(GET),
  ...guard(permissionOf(GET)),
  request: { params: IdParam },
  responses: { 200: one("The charge."), ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const remove = createRoute({
  ...nativeOperation(DELETE),
  ...guard(permissionOf(DELETE)),
  description: "Cancels an open (PENDING or OVERDUE) charge: status CANCELED, event payment.canceled.",
  request: { params: IdParam },
  responses: { [DELETE_STATUS]: one("The canceled charge."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});
const status = createRoute({
  ...nativeOperation(STATUS),
  ...guard(permissionOf(STATUS)),
  request: { params: IdParam },
  responses: { 200: { description: "The charge's status.", content: { "application/json": { schema: envelopeOf(ChargeStatusView) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const pixResponses = { 200: { description: "PIX copy-and-paste payload, QR image (base64 PNG) and expiry.", content: { "application/json": { schema: envelopeOf(PixQrCode) } } }, ...errorResponses(...AUTHENTICATED_ERRORS, 409, ...UPSTREAM_ERRORS) };
const pixQrCode = createRoute({
  ...nativeOperation(PIX_QR),
  ...guard(permissionOf(PIX_QR)),
  request: { params: IdParam },
  responses: pixResponses,
});
const pix = createRoute({
  ...routeGroup("payments", "internal"),
  method: "get",
  path: "/api/v1/payments/{id}/pix",
  operationId: "payments-pix",
  summary: "PIX QR code and copy-and-paste data of a charge",
  ...guard("payments.read"),
  request: { params: IdParam },
  responses: pixResponses,
});
const refund = createRoute({
  ...nativeOperation(REFUND),
  ...guard(permissionOf(REFUND)),
  description: "Full (no value) or partial refund of a CONFIRMED, RECEIVED or RECEIVED_IN_CASH charge. Partial refunds keep the status and raise refundedValue; the sum never exceeds the charge value (409 INVALID_STATE).",
  request: { params: IdParam, body: { required: false, content: { "application/json": { schema: RefundBody } } } },
  responses: { [REFUND_STATUS]: one("The charge after the refund."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});
const refundList = createRoute({
  ...nativeOperation(REFUNDS),
  ...guard(permissionOf(REFUNDS)),
  request: { params: IdParam, query: PaginationQuery },
  responses: { 200: { description: "The charge's refunds, newest first.", content: { "application/json": { schema: listEnvelopeOf(Refund) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const cancel = createRoute({
  ...routeGroup("payments", "internal"),
  method: "post",
  path: "/api/v1/payments/{id}/cancel",
  operationId: "payments-cancel",
  summary: "Cancel an open charge",
  ...guard("payments.manage"),
  request: { params: IdParam },
  responses: { 200: one("The canceled charge."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});

export function registerPaymentRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createCharge(depsFrom(c), c.get("principal"), c.req.valid("json"), c.req.header(IDEMPOTENCY_HEADER)), CREATE_STATUS));
  documentVariant(app, createCard);
  app.openapi(list, async (c) => {
    const { limit, offset, ...filters } = c.req.valid("query");
    const page = { limit, offset };
    const { rows, totalCount } = await listCharges(depsFrom(c), c.get("principal"), page, filters);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getCharge(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(remove, async (c) => ok(c, await cancelCharge(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.path), DELETE_STATUS));
  app.openapi(status, async (c) => ok(c, await getChargeStatus(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(pixQrCode, async (c) => ok(c, await getPixQrCode(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(pix, async (c) => ok(c, await getPixQrCode(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(refund, async (c) => {
    const body = (c.req.valid("json") as { value?: string | number; description?: string } | undefined) ?? {};
    return ok(c, await refundCharge(depsFrom(c), c.get("principal"), c.req.valid("param").id, body), REFUND_STATUS);
  });
  app.openapi(refundList, async (c) => {
    const page = c.req.valid("query");
    const { rows, totalCount } = await listRefunds(depsFrom(c), c.get("principal"), c.req.valid("param").id, page);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(cancel, async (c) => ok(c, await cancelCharge(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.path), 200));
}
