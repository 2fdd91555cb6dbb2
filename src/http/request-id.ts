// Every request gets an id; every response carries it in X-Request-Id and in its envelope.
import type { MiddlewareHandler } from "hono";
import { newId } from "../lib/ids";
import type { AppEnv } from "./app-env";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** `req_` and a UUIDv7's 32 hex digits: time-ordered, so logs sort by it. */
export const newRequestId = () => `req_${newId().replaceAll("-", "")}`;

export const requestId = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const id = newRequestId();
  c.set("requestId", id);
  await next();
  // An idempotent replay carries the original request id in its body; keep header and body equal.
  if (!c.res.headers.has(REQUEST_ID_HEADER)) c.res.headers.set(REQUEST_ID_HEADER, id);
};
