// Per-account simulator state, kept in module memory and keyed by access token
// (one simulated upstream account per token; tests isolate themselves with unique tokens).
import type { Json } from "./http";

export type BillingType = "PIX" | "BOLETO" | "CREDIT_CARD" | "UNDEFINED";
export type PaymentStatus =
  | "PENDING"
  | "RECEIVED"
  | "CONFIRMED"
  | "OVERDUE"
  | "REFUNDED"
  | "RECEIVED_IN_CASH"
  | "AUTHORIZED"
  | "REFUND_REQUESTED"
  | "CHARGEBACK_REQUESTED"
  | "DUNNING_REQUESTED";
export type Cycle = "WEEKLY" | "BIWEEKLY" | "MONTHLY" | "BIMONTHLY" | "QUARTERLY" | "SEMIANNUALLY" | "YEARLY";

export interface Customer extends Json {
  object: "customer";
  id: string;
  dateCreated: string;
  name: string;
  cpfCnpj: string;
  deleted: boolean;
}

export interface Refund extends Json {
  dateCreated: string;
  status: "DONE";
  value: number;
  description: string | null;
}

export interface Payment extends Json {
  object: "payment";
  id: string;
  dateCreated: string;
  customer: string;
  subscription: string | null;
  value: number;
  netValue: number;
  billingType: BillingType;
  status: PaymentStatus;
  dueDate: string;
  paymentDate: string | null;
  deleted: boolean;
  nossoNumero: string;
  refunds: Refund[] | null;
}

export interface Subscription extends Json {
  object: "subscription";
  id: string;
  dateCreated: string;
  customer: string;
  billingType: BillingType;
  cycle: Cycle;
  value: number;
  nextDueDate: string;
  status: "ACTIVE" | "INACTIVE" | "EXPIRED";
  deleted: boolean;
}

export interface WebhookConfigFields {
  name: string;
  url: string;
  email: string | null;
  enabled: boolean;
  interrupted: boolean;
  apiVersion: number;
  authToken: string | null;
  sendType: "SEQUENTIALLY" | "NON_SEQUENTIALLY";
  events: string[];
}

export interface WebhookConfig extends Json, WebhookConfigFields {
  object: "webhook";
  id: string;
}

export interface CardToken {
  token: string;
  customer: string;
  last4: string;
  brand: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: string;
}

export interface Fault {
  method?: string;
  pathPrefix?: string;
  fault: "status" | "delay" | "timeout" | "network";
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  remaining: number;
}

export interface Delivery {
  eventId: string;
  event: string;
  url: string;
  status: number;
  ok: boolean;
  error?: string;
  deliveredAt: string;
}

export interface Account {
  token: string;
  customers: Map<string, Customer>;
  payments: Map<string, Payment>;
  subscriptions: Map<string, Subscription>;
  webhooks: Map<string, WebhookConfig>;
  /** Payment links and checkouts, as the upstream answers them. */
  paymentLinks: Map<string, Json>;
  checkouts: Map<string, Json>;
  cardTokens: Map<string, CardToken>;
  /** Installment plans ("parcelamentos"), as the upstream answers them. */
  installments: Map<string, Json>;
  /** Generic collections of the shape-driven resources (transfers, bill payments, Pix keys, …) by name. */
  records: Map<string, Map<string, Json>>;
  /** Per-path singletons (settings the upstream keeps one of: fiscal info, pre-authorization config, …). */
  singletons: Map<string, Json>;
  requests: RecordedRequest[];
  faults: Fault[];
  deliveries: Delivery[];
  /** Bumped when faults are cleared, releasing requests hung by a "timeout" fault. */
  faultGeneration: number;
}

const accounts = new Map<string, Account>();

export function getAccount(token: string): Account {
  let account = accounts.get(token);
  if (!account) {
    account = {
      token,
      customers: new Map(),
      payments: new Map(),
      subscriptions: new Map(),
      webhooks: new Map(),
      paymentLinks: new Map(),
      checkouts: new Map(),
      cardTokens: new Map(),
      installments: new Map(),
      records: new Map(),
      singletons: new Map(),
      requests: [],
      faults: [],
      deliveries: [],
      faultGeneration: 0,
    };
    accounts.set(token, account);
  }
  return account;
}

/** Newest first, like the upstream's lists. */
export function newestFirst<T>(items: Iterable<T>): T[] {
  return [...items].reverse();
}
