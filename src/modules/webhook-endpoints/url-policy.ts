/**
 * SSRF guard for merchant webhook URLs: we only deliver to public HTTPS hostnames.
 *
 * This is a syntactic check done when an endpoint is created or updated; it does not
 * resolve DNS (no I/O here), so a public name pointing at a private address is not caught
 * by this module.
 */

export interface WebhookUrlOptions {
  /** Dev/test only: allow http(s)://localhost[:port] and http(s)://127.0.0.1[:port]. */
  allowLocalhostHttp: boolean;
}

export type WebhookUrlResult = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Reserved, internal or non-public suffixes (matched as whole trailing labels). */
const BLOCKED_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "home",
  "home.arpa",
  "corp",
  "private",
  "test",
  "example",
  "invalid",
  "onion",
  "arpa",
] as const;

const LOCAL_DEV_HOSTS = new Set(["localhost", "127.0.0.1"]);
// The dev allowance needs the literal spelling, so 2130706433 / 127.1 / 0x7f.1 stay rejected.
const LOCAL_DEV_RAW = /^https?:\/\/(?:localhost|127\.0\.0\.1)(?::[0-9]*)?(?:[/?]|$)/i;

function reject(reason: string): WebhookUrlResult {
  return { ok: false, reason };
}

function hasSuffix(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

export function checkWebhookUrl(raw: string, options: WebhookUrlOptions): WebhookUrlResult {
  if (typeof raw !== "string" || raw.length === 0) return reject("URL is required");
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return reject(`URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  // new URL silently strips surrounding spaces and inner tabs/newlines; refuse them instead.
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return reject("URL must not contain spaces or control characters");
  // Any '#' starts a fragment, even an empty one that URL.hash reports as "".
  if (raw.includes("#")) return reject("URL must not contain a fragment (#...)");

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return reject("URL is not a valid absolute URL");
  }

  if (url.username !== "" || url.password !== "") return reject("URL must not contain a username or password");

  const hostname = url.hostname;
  const isLocalDev = options.allowLocalhostHttp && LOCAL_DEV_HOSTS.has(hostname) && LOCAL_DEV_RAW.test(raw);

  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLocalDev)) {
    return reject("URL must use https");
  }
  if (url.port === "0") return reject("URL port must not be 0");

  if (!isLocalDev) {
    const hostProblem = checkPublicHostname(hostname);
    if (hostProblem !== null) return reject(hostProblem);
  }

  const normalised = url.toString();
  if (normalised.length > MAX_WEBHOOK_URL_LENGTH) return reject(`URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  return { ok: true, url: normalised };
}

/** Returns a human-readable problem with the (already WHATWG-parsed) hostname, or null. */
function checkPublicHostname(hostname: string): string | null {
  if (hostname === "") return "URL must have a host name";
  if (hostname.startsWith("[")) return "URL host must be a domain name, not an IP address";
  // WHATWG parsing turns every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into a dotted quad.
  if (/^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/.test(hostname)) return "URL host must be a domain name, not an IP address";

  // A single trailing dot is a valid FQDN spelling; drop it so suffix rules still apply.
  const host = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  const labels = host.split(".");
  if (labels.some((label) => label === "")) return "URL host name has an empty label";
  if (!/^[a-z0-9_.-]+$/.test(host)) return "URL host name contains invalid characters";

  if (host === "localhost" || host.endsWith(".localhost")) return "URL host must not be localhost";
  if (labels.length < 2) return "URL host must be a fully qualified domain name (single-label hosts are not allowed)";

  const tld = labels[labels.length - 1] ?? "";
  if (/^[0-9]+$/.test(tld) || /^0x[0-9a-f]*$/.test(tld)) return "URL host must not end in a numeric label";

  for (const suffix of BLOCKED_SUFFIXES) {
    if (hasSuffix(host, suffix)) return `URL host must be public; ".${suffix}" names are internal or reserved`;
  }
  return null;
}
