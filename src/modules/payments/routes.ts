// Payments, refunds and PIX: the native Cobranças/Estornos catalogue rows plus the product-level
// `/pix` and `/cancel` routes (surface internal). Each operation: its route, then its handler.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import { nativeOperation, permissionOf, successStatusOf } from "../../compat/catalogue-route";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { IDEMPOTENCY_HEADER } from "../../http/idempotency";
import {
  AUTHENTICATED_ERRORS,
  UPSTREAM_ERRORS,
  WRITE_ERRORS,
  dataResponse,
  documentVariant,
  errorResponses,
  jsonBody,
  listResponse,
  routeGroup,
} from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import { listRefunds, refundPayment } from "./refunds";
import { CardPaymentBody, Payment, PaymentListQuery, PaymentStatusView, CreatePaymentBody, PixQrCode, Refund, RefundBody } from "./schemas";
import { cancelPayment, createPayment, getPayment, getPaymentStatus, getPixQrCode, listPayments } from "./service";

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
  [CREATE_STATUS]: dataResponse("The payment. PIX and BOLETO start PENDING; an approved card is CONFIRMED.", Payment),
  ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
};
const pixResponses = {
  200: dataResponse("PIX copy-and-paste payload, QR image (base64 PNG) and expiry.", PixQrCode),
  ...errorResponses(...AUTHENTICATED_ERRORS, 409, ...UPSTREAM_ERRORS),
};

export function registerPaymentRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...nativeOperation(CREATE),
      ...guard(permissionOf(CREATE)),
      description: [
        "Creates the Ponte record, then the upstream payment (with the Ponte id as its externalReference).",
        "A refused card answers 400 and keeps a FAILED payment (see details.paymentId).",
        "An upstream timeout answers 504 but the payment exists with syncStatus pending; retrying with the same Idempotency-Key resumes it and never payments twice.",
      ].join(" "),
      request: { body: jsonBody(CreatePaymentBody) },
      responses: createResponses,
    }),
    async (c) => {
      const key = c.req.header(IDEMPOTENCY_HEADER);
      const payment = await createPayment(c.get("deps"), c.get("principal"), c.req.valid("json"), key, CREATE_STATUS);
      return ok(c, payment, CREATE_STATUS);
    },
  );

  // The card variant shares the method and path: documented at the trailing-slash path, served by the route above.
  documentVariant(
    app,
    createRoute({
      ...nativeOperation(CREATE_CARD),
      ...guard(permissionOf(CREATE_CARD)),
      description: [
        "Same operation as criar-nova-cobranca with billingType CREDIT_CARD and creditCardToken, or creditCard + creditCardHolderInfo (+ remoteIp).",
        "Card data goes straight to the upstream; Ponte keeps only token, brand and last 4.",
      ].join(" "),
      request: { body: jsonBody(CardPaymentBody) },
      responses: createResponses,
    }),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(LIST),
      ...guard(permissionOf(LIST)),
      request: { query: PaymentListQuery },
      responses: { 200: listResponse("A page of payments, newest first.", Payment), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const page = { limit, offset };
      const { rows, totalCount } = await listPayments(c.get("deps"), c.get("principal"), page, filters);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...nativeOperation(GET),
      ...guard(permissionOf(GET)),
      request: { params: IdParam },
      responses: { 200: dataResponse("The payment.", Payment), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getPayment(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(DELETE),
      ...guard(permissionOf(DELETE)),
      description: "Cancels an open (PENDING or OVERDUE) payment: status CANCELED, event payment.canceled.",
      request: { params: IdParam },
      responses: {
        [DELETE_STATUS]: dataResponse("The canceled payment.", Payment),
        ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
      },
    }),
    async (c) => ok(c, await cancelPayment(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.path), DELETE_STATUS),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(STATUS),
      ...guard(permissionOf(STATUS)),
      request: { params: IdParam },
      responses: { 200: dataResponse("The payment's status.", PaymentStatusView), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getPaymentStatus(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(PIX_QR),
      ...guard(permissionOf(PIX_QR)),
      request: { params: IdParam },
      responses: pixResponses,
    }),
    async (c) => ok(c, await getPixQrCode(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...routeGroup("payments", "internal"),
      method: "get",
      path: "/api/v1/payments/{id}/pix",
      operationId: "payments-pix",
      summary: "PIX QR code and copy-and-paste data of a payment",
      ...guard("payments.read"),
      request: { params: IdParam },
      responses: pixResponses,
    }),
    async (c) => ok(c, await getPixQrCode(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(REFUND),
      ...guard(permissionOf(REFUND)),
      description: [
        "Full (no value) or partial refund of a CONFIRMED, RECEIVED or RECEIVED_IN_CASH payment.",
        "Partial refunds keep the status and raise refundedValue; the sum never exceeds the payment value (409 INVALID_STATE).",
      ].join(" "),
      request: { params: IdParam, body: jsonBody(RefundBody) },
      responses: {
        [REFUND_STATUS]: dataResponse("The payment after the refund.", Payment),
        ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return ok(c, await refundPayment(c.get("deps"), c.get("principal"), c.req.valid("param").id, body), REFUND_STATUS);
    },
  );

  app.openapi(
    createRoute({
      ...nativeOperation(REFUNDS),
      ...guard(permissionOf(REFUNDS)),
      request: { params: IdParam, query: PaginationQuery },
      responses: { 200: listResponse("The payment's refunds, newest first.", Refund), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listRefunds(c.get("deps"), c.get("principal"), c.req.valid("param").id, page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...routeGroup("payments", "internal"),
      method: "post",
      path: "/api/v1/payments/{id}/cancel",
      operationId: "payments-cancel",
      summary: "Cancel an open payment",
      ...guard("payments.manage"),
      request: { params: IdParam },
      responses: { 200: dataResponse("The canceled payment.", Payment), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
    }),
    async (c) => ok(c, await cancelPayment(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.path), 200),
  );
}
