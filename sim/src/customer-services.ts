// Customer-facing services: a customer's notification settings (the upstream's defaults, one per event) and
// credit bureau reports (consultas Serasa).
import { bodyObject, type Handler, type SimContext } from "./context";
import { getIn, insert, listRecords, resource } from "./engine";
import { badRequest, isObject, listBody, readPage, type Json } from "./http";
import { findCustomer } from "./customers";
import { collection, upstreamEnum } from "./records";

// ── notifications ────────────────────────────────────────────────────────────
const EVENTS = upstreamEnum("NotificationEvent");
const notificationsOf = (ctx: SimContext, customer: string) => collection(ctx.account, `notifications:${customer}`);

/** A customer's notification settings: the upstream's defaults, one per event, made with the customer. */
function customerNotifications(ctx: SimContext, customerId: string): Map<string, Json> {
  const customer = findCustomer(ctx.account, customerId);
  const existing = notificationsOf(ctx, customer.id);
  if (existing.size === 0) {
    for (const event of EVENTS) {
      const id = `not_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
      existing.set(id, {
        object: "notification",
        id,
        customer: customer.id,
        enabled: true,
        emailEnabledForProvider: true,
        smsEnabledForProvider: false,
        emailEnabledForCustomer: true,
        smsEnabledForCustomer: true,
        phoneCallEnabledForCustomer: false,
        whatsappEnabledForCustomer: false,
        event,
        scheduleOffset: event === "PAYMENT_DUEDATE_WARNING" ? 10 : 0,
        deleted: false,
      });
    }
  }
  return existing;
}

function findNotification(ctx: SimContext, id: string | undefined): Json {
  for (const [name, records] of ctx.account.records) {
    const n = name.startsWith("notifications:") && id ? records.get(id) : undefined;
    if (n) return n;
  }
  throw badRequest("invalid_notification", `Notificação ${id ?? ""} não encontrada.`);
}

const NOTIFICATION_FLAGS = [
  "enabled",
  "emailEnabledForProvider",
  "smsEnabledForProvider",
  "emailEnabledForCustomer",
  "smsEnabledForCustomer",
  "phoneCallEnabledForCustomer",
  "whatsappEnabledForCustomer",
];

function applyNotification(n: Json, body: Json): Json {
  const next = { ...n };
  for (const k of NOTIFICATION_FLAGS) {
    if (body[k] === undefined) continue;
    if (typeof body[k] !== "boolean") throw badRequest(`invalid_${k}`, `${k} deve ser booleano.`);
    next[k] = body[k];
  }
  if (body.scheduleOffset !== undefined) {
    if (![0, 1, 5, 10, 15, 30].includes(Number(body.scheduleOffset)))
      throw badRequest("invalid_scheduleOffset", "scheduleOffset: 0, 1, 5, 10, 15 ou 30.");
    next.scheduleOffset = Number(body.scheduleOffset);
  }
  return next;
}

export const notificationHandlers = {
  list: ((ctx) => listBody([...customerNotifications(ctx, ctx.params.id ?? "").values()], readPage(ctx.query))) as Handler,
  update: ((ctx) => {
    const n = findNotification(ctx, ctx.params.id);
    return Object.assign(n, applyNotification(n, bodyObject(ctx)));
  }) as Handler,
  /** `PUT /notifications/batch` {customer, notifications:[{id, …}]}: all or nothing. */
  batch: ((ctx) => {
    const body = bodyObject(ctx);
    if (typeof body.customer !== "string" || !Array.isArray(body.notifications))
      throw badRequest("invalid_body", "Informe customer e notifications.");
    const mine = customerNotifications(ctx, body.customer);
    const updates = body.notifications.map((raw: unknown) => {
      const item = isObject(raw) ? raw : {};
      const n = mine.get(String(item.id));
      if (!n) throw badRequest("invalid_notification", `Notificação ${String(item.id)} não pertence ao cliente.`);
      return [n, applyNotification(n, item)] as const;
    });
    return { notifications: updates.map(([n, next]) => Object.assign(n, next)) };
  }) as Handler,
};

// ── credit bureau reports ────────────────────────────────────────────────────
export const reports = resource("creditBureauReports", "CreditBureauReportGetResponse", "Consulta não encontrada.");

export const reportHandlers = {
  create: ((ctx) => {
    const body = bodyObject(ctx);
    const cpfCnpj =
      typeof body.customer === "string" ? findCustomer(ctx.account, body.customer).cpfCnpj : String(body.cpfCnpj ?? "").replace(/\D/g, "");
    if (cpfCnpj.length !== 11 && cpfCnpj.length !== 14) throw badRequest("invalid_cpfCnpj", "Informe customer ou um cpfCnpj válido.");
    if (typeof body.state !== "string" || !/^[A-Z]{2}$/.test(body.state)) throw badRequest("invalid_state", "Informe a UF (state).");
    return insert(ctx, reports, { cpfCnpj, state: body.state }, (c, r) => {
      r.downloadUrl = `${c.origin}/consultas/${String(r.id)}.pdf`;
    });
  }) as Handler,
  list: ((ctx) => {
    const start = ctx.query.get("startDate");
    const end = ctx.query.get("endDate");
    const rows = [...collection(ctx.account, "creditBureauReports").values()].filter(
      (r) => (!start || String(r.dateCreated) >= start) && (!end || String(r.dateCreated) <= end),
    );
    return listRecords(ctx, reports.dto, rows);
  }) as Handler,
  get: getIn(reports),
};
