// /console/payments: the workspace's charges with filters; one payment with its status timeline (its payment.*
// events) and, with payments.manage, refund and cancel as same-origin POST forms. All through the payments services.
import type { Hono } from "hono";
import { cancelPayment, getPayment, listPayments } from "../../modules/payments/service";
import { refundPayment } from "../../modules/payments/refunds";
import { CANCELABLE_STATUSES, PAYMENT_STATUSES, REFUNDABLE_STATUSES } from "../../modules/payments/status-rules";
import { paymentTimeline } from "../../modules/payments/timeline";
import { type ConsoleContext, type ConsoleEnv, shellFor } from "../context";
import { Page } from "../layout";
import { ActionForm, ButtonForm, formAction, Outcome } from "../parts/action-form";
import { DataTable, pageOf } from "../parts/data-table";
import { FilterBar, filtersOf } from "../parts/filter-bar";
import { Badge, can, when } from "./common";

const PATH = "/console/payments";
const FILTERS = ["status", "billingType", "customer", "dueDate[ge]", "dueDate[le]"] as const;

export function registerPaymentPages(app: Hono<ConsoleEnv>) {
  app.get("/payments", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const filters = filtersOf(c, FILTERS);
    const { rows, totalCount } = await listPayments(deps, principal, request, filters as Parameters<typeof listPayments>[3]);
    return c.html(
      <Page title="Payments" shell={shellFor(c, PATH)}>
        <h1>Payments</h1>
        <FilterBar
          c={c}
          path={PATH}
          label="Filter payments"
          fields={[
            { name: "status", label: "Status", options: PAYMENT_STATUSES },
            { name: "billingType", label: "Billing type", options: ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"] },
            { name: "customer", label: "Customer id" },
            { name: "dueDate[ge]", label: "Due from", type: "date" },
            { name: "dueDate[le]", label: "Due until", type: "date" },
          ]}
        />
        <DataTable
          rows={rows}
          empty="No payments match."
          paging={{ c, path: PATH, page, total: totalCount }}
          columns={[
            { label: "Created", cell: (p) => when(p.createdAt), href: (p) => `${PATH}/${p.id}` },
            { label: "Value", cell: (p) => `R$ ${p.value}`, mono: true },
            { label: "Status", cell: (p) => <Badge value={p.status} /> },
            { label: "Billing", cell: (p) => p.billingType },
            { label: "Due", cell: (p) => p.dueDate },
            { label: "Customer", cell: (p) => p.customer, mono: true },
          ]}
        />
      </Page>,
    );
  });

  const renderPayment = async (c: ConsoleContext, id: string, state: { error?: string; notice?: string } = {}, status = 200) => {
    const { deps, principal } = c.get("console");
    const [p, timeline] = await Promise.all([getPayment(deps, principal, id), paymentTimeline(deps, principal, id)]);
    const manage = can(c, "payments.manage");
    const refundable = (REFUNDABLE_STATUSES as readonly string[]).includes(p.status);
    const cancelable = (CANCELABLE_STATUSES as readonly string[]).includes(p.status);
    return c.html(
      <Page title="Payment" shell={shellFor(c, PATH)}>
        <p>
          <a href={PATH}>← Payments</a>
        </p>
        <h1>
          Payment <code>{p.id}</code>
        </h1>
        <Outcome state={state} />
        <div class="card">
          <p>
            <Badge value={p.status} /> R$ {p.value} by {p.billingType}, due {p.dueDate}; refunded R$ {p.refundedValue}.
          </p>
          <p class="muted">
            Customer <code>{p.customer}</code>
            {p.description ? ` · ${p.description}` : ""}
          </p>
        </div>
        <h2>Status timeline</h2>
        {timeline.length === 0 ? (
          <p class="muted">No events recorded for this payment yet.</p>
        ) : (
          <ol class="card" aria-label="Status timeline">
            {timeline.map((t) => (
              <li>
                {when(t.createdAt)} — <code>{t.type}</code>
                {t.status ? (
                  <>
                    {" "}
                    → <Badge value={t.status} />
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        )}
        {manage && (refundable || cancelable) ? (
          <>
            <h2>Actions</h2>
            <div class="card">
              {refundable ? (
                <ActionForm
                  id="refund"
                  bare
                  action={`${PATH}/${p.id}/refund`}
                  submit="Refund"
                  submitClass="danger"
                  fields={[
                    {
                      name: "value",
                      label: "Refund value (empty: the whole remaining value)",
                      inputmode: "decimal",
                      placeholder: "e.g. 10.00",
                      id: "refund-value",
                    },
                  ]}
                />
              ) : null}
              {cancelable ? <ButtonForm action={`${PATH}/${p.id}/cancel`} submit="Cancel payment" kind="danger" /> : null}
            </div>
          </>
        ) : null}
      </Page>,
      status as 200,
    );
  };

  app.get("/payments/:id", (c) => renderPayment(c, c.req.param("id")));

  // Each answers with the payment's page and the outcome (its timeline shows the new status at once).
  const action = (path: string, run: (c: ConsoleContext, id: string, value: string | undefined) => Promise<string>) =>
    formAction(app, `/payments/:id/${path}`, {
      fields: ["value"],
      run: (c, values, id) => run(c, id, values.value || undefined),
      show: (c, notice) => renderPayment(c, c.req.param("id") ?? "", { notice: notice as string }),
      render: (c, state, status) => renderPayment(c, c.req.param("id") ?? "", { error: state.error }, status),
    });
  action("refund", async (c, id, value) => {
    await refundPayment(c.get("console").deps, c.get("console").principal, id, { value });
    return value ? `Refunded R$ ${value}.` : "Refunded the remaining value.";
  });
  action("cancel", async (c, id) => {
    await cancelPayment(c.get("console").deps, c.get("console").principal, id, c.req.path);
    return "Payment canceled.";
  });
}
