// Every request gets an id; every response carries it in X-Request-Id and in its envelope. The id is
// given and the header stamped by the app's first middleware (src/http/provide-deps.ts).
import { newIdDigits } from "../lib/ids";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** `req_` and a UUIDv7's 32 hex digits: time-ordered, so logs sort by it. */
export const newRequestId = () => `req_${newIdDigits()}`;

/** Puts the request id on the response, unless it has one: an idempotent replay carries the original request id in its body; keep header and body equal. */
export function stampRequestId(res: Response, id: string): void {
  const headers = res.headers;
  if (!headers.has(REQUEST_ID_HEADER)) headers.set(REQUEST_ID_HEADER, id);
}
