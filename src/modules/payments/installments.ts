// Installment plans on POST /payments (installmentCount with installmentValue or totalValue): the
// upstream creates the plan and one payment per instalment; each becomes a Ponte charge (origin
// `api`) through the same adoption as webhooks, so the plan's own webhooks and this request together
// make one record per instalment, all carrying the same Ponte `installment` id.
import { type GatewayCredentials, upstreamJson } from "../../billing/upstream";
import { centsOf } from "../../billing/schemas";
import type { Deps } from "../../deps";
import { toUpstreamAmount } from "../../lib/money";
import { tenantOf, type Tenant } from "../../lib/tenant";
import { ApiError } from "../../http/errors";
import { adoptUpstreamPayment, isUpstreamPayment } from "./adoption";
import { presentPayment, type PaymentRow, type UpstreamPayment } from "./lifecycle";
import type { z } from "@hono/zod-openapi";
import type { CreatePaymentBody } from "./schemas";

interface UpstreamList {
  data?: unknown[];
  hasMore?: boolean;
}

type InstallmentInput = z.infer<typeof CreatePaymentBody> & { installmentCount: number };

/** Creates the plan upstream, then adopts every instalment; answers the first, as the upstream does. */
export async function createInstallmentPlan(
  deps: Deps,
  credentials: GatewayCredentials,
  tenant: Tenant,
  customerUpstreamId: string,
  input: InstallmentInput,
  card: { token?: string | undefined },
) {
  const amount = (value: string | number | undefined) => (value === undefined ? undefined : toUpstreamAmount(centsOf(value)));
  const first = await upstreamJson<UpstreamPayment>(deps, credentials, {
    flow: "create-installment",
    method: "POST",
    path: "/v3/payments",
    body: {
      customer: customerUpstreamId,
      billingType: input.billingType,
      dueDate: input.dueDate,
      installmentCount: input.installmentCount,
      ...(input.installmentValue !== undefined ? { installmentValue: amount(input.installmentValue) } : {}),
      ...(input.totalValue !== undefined ? { totalValue: amount(input.totalValue) } : {}),
      ...(input.description ? { description: input.description } : {}),
      ...(input.externalReference ? { externalReference: input.externalReference } : {}),
      ...(card.token ? { creditCardToken: card.token } : {}),
      ...(input.creditCard ? { creditCard: input.creditCard, creditCardHolderInfo: input.creditCardHolderInfo } : {}),
      ...(input.remoteIp ? { remoteIp: input.remoteIp } : {}),
    },
    surfacePath: "/api/v1/payments",
  });
  if (!first.installment) throw new ApiError("UPSTREAM_ERROR", "The upstream created no installment plan.", { upstreamId: first.id });
  const listed = await upstreamJson<UpstreamList>(deps, credentials, {
    flow: "list-installment",
    method: "GET",
    path: "/v3/payments",
    query: `installment=${encodeURIComponent(first.installment)}&limit=100`,
  });
  const instalments = (listed.data ?? []).filter(isUpstreamPayment);
  if (!instalments.some((p) => p.id === first.id) && isUpstreamPayment(first)) instalments.push(first);
  instalments.sort((a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0));
  const rows: PaymentRow[] = [];
  for (const payment of instalments) {
    const row = await adoptUpstreamPayment(deps, tenantOf(tenant), payment, "api", { installmentCount: input.installmentCount });
    if (row) rows.push(row);
  }
  const answer = rows.find((r) => r.upstreamId === first.id) ?? rows[0];
  if (!answer) throw new ApiError("UPSTREAM_ERROR", "The upstream's installment plan could not be read back.", { upstreamId: first.id });
  return presentPayment(answer);
}
