// Webhook configurations (`/v3/webhooks`) and outbound event delivery.
import { bodyObject, type Handler, type PendingEvent, type SimEnv } from "./context";
import { badRequest, dateTime, listBody, newId, notFound, randomAlphanumeric, readPage, type Json } from "./http";
import { newestFirst, type Account, type Delivery, type WebhookConfig, type WebhookConfigFields } from "./state";

const MAX_CONFIGS = 10;

function readConfig(body: Json, base?: WebhookConfig): WebhookConfigFields {
  const url = body.url ?? base?.url;
  if (typeof url !== "string" || !/^https?:\/\/\S+$/.test(url)) throw badRequest("invalid_url", "Informe uma URL válida.");
  const sendType = body.sendType ?? base?.sendType ?? "SEQUENTIALLY";
  if (sendType !== "SEQUENTIALLY" && sendType !== "NON_SEQUENTIALLY") {
    throw badRequest("invalid_sendType", "sendType deve ser SEQUENTIALLY ou NON_SEQUENTIALLY.");
  }
  const events = body.events ?? base?.events ?? [];
  if (!Array.isArray(events) || events.some((e) => typeof e !== "string")) {
    throw badRequest("invalid_events", "events deve ser uma lista de eventos.");
  }
  const pick = <T>(key: string, fallback: T): T => (body[key] !== undefined ? (body[key] as T) : fallback);
  return {
    name: String(pick("name", base?.name ?? "")),
    url,
    email: pick<string | null>("email", base?.email ?? null),
    enabled: pick("enabled", base?.enabled ?? true) !== false,
    interrupted: pick("interrupted", base?.interrupted ?? false) === true,
    apiVersion: Number(pick("apiVersion", base?.apiVersion ?? 3)),
    authToken: pick<string | null>("authToken", base?.authToken ?? null),
    sendType,
    events: events as string[],
  };
}

function findConfig(account: Account, id: string | undefined): WebhookConfig {
  const config = id ? account.webhooks.get(id) : undefined;
  if (!config) throw notFound("Webhook não encontrado.");
  return config;
}

export const createWebhookConfig: Handler = (ctx) => {
  const { account } = ctx;
  if (account.webhooks.size >= MAX_CONFIGS) throw badRequest("invalid_action", "Limite de 10 webhooks atingido.");
  const config: WebhookConfig = { object: "webhook", id: newId("wbh"), ...readConfig(bodyObject(ctx)) };
  account.webhooks.set(config.id, config);
  return config;
};

export const listWebhookConfigs: Handler = ({ account, query }) => listBody(newestFirst(account.webhooks.values()), readPage(query));

export const getWebhookConfig: Handler = ({ account, params }) => findConfig(account, params.id);

export const updateWebhookConfig: Handler = (ctx) => {
  const config = findConfig(ctx.account, ctx.params.id);
  Object.assign(config, readConfig(bodyObject(ctx), config));
  return config;
};

export const deleteWebhookConfig: Handler = ({ account, params }) => {
  const config = findConfig(account, params.id);
  account.webhooks.delete(config.id);
  return { deleted: true, id: config.id };
};

export const removeWebhookBackoff: Handler = ({ account, params }) => {
  const config = findConfig(account, params.id);
  config.interrupted = false;
  return new Response(null, { status: 204 });
};

export interface WebhookEnvelope {
  id: string;
  event: string;
  dateCreated: string;
  [entityKey: string]: unknown;
}

/** The upstream's webhook body: `{ id: "evt_…", event, dateCreated, payment|subscription: {…} }`. */
export function buildWebhookEnvelope(event: PendingEvent, now = new Date()): WebhookEnvelope {
  return {
    id: `evt_${randomAlphanumeric(32)}`,
    event: event.event,
    dateCreated: dateTime(now),
    [event.entityKey]: event.entity,
  };
}

/** Headers sent with each notification; the config's authToken goes in `asaas-access-token`. */
export function webhookHeaders(config: Pick<WebhookConfig, "authToken">): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "ponte-upstream-sim" };
  if (config.authToken) headers["asaas-access-token"] = config.authToken;
  return headers;
}

export function subscribedConfigs(account: Account, event: string): WebhookConfig[] {
  return [...account.webhooks.values()].filter((c) => c.enabled && !c.interrupted && (c.events.length === 0 || c.events.includes(event)));
}

async function deliverOne(env: SimEnv, config: WebhookConfig, envelope: WebhookEnvelope): Promise<Delivery> {
  const init = { method: "POST", headers: webhookHeaders(config), body: JSON.stringify(envelope), signal: AbortSignal.timeout(10_000) };
  const record = (status: number, error?: string): Delivery => ({
    eventId: envelope.id,
    event: envelope.event,
    url: config.url,
    status,
    ok: status === 200,
    ...(error ? { error } : {}),
    deliveredAt: new Date().toISOString(),
  });
  try {
    let response: Response;
    if (env.PONTE) {
      const target = new URL(config.url);
      response = await env.PONTE.fetch(new Request(`https://ponte.internal${target.pathname}${target.search}`, init));
    } else {
      response = await fetch(config.url, init);
    }
    await response.body?.cancel();
    return record(response.status);
  } catch (err) {
    return record(0, err instanceof Error ? err.message : String(err));
  }
}

/** Delivers queued events, in order, to every subscribed config. Never throws. */
export async function deliverEvents(env: SimEnv, account: Account, events: readonly PendingEvent[]): Promise<void> {
  for (const event of events) {
    const configs = subscribedConfigs(account, event.event);
    if (configs.length === 0) continue;
    const envelope = buildWebhookEnvelope(event);
    for (const config of configs) account.deliveries.push(await deliverOne(env, config, envelope));
  }
}
