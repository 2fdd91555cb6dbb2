/**
 * SSRF guard for merchant webhook URLs: we only deliver to public HTTPS host names. Checked when an
 * endpoint is saved AND again before every delivery attempt (src/events/deliver.ts), so a URL stored
 * before a rule existed is not delivered to either.
 *
 * Addresses are parsed with ipaddr.js, never by hand. Rejected: IP literals of any spelling; any port but
 * 443; names under wildcard-DNS services that turn a name into an address (`*.nip.io`, `*.sslip.io`,
 * `*.xip.io`, …) whatever the address; names elsewhere that embed a non-public address in any spelling the
 * way those services read them (`127.000.000.001.x.io`, `0177.0.0.1.x.io`, `2130706433.x.io`,
 * `app-10-0-0-1.x.io`, `7f000001.x.io`, `--1.x.io`); well-known names that resolve to loopback
 * (`localtest.me`, `lvh.me`, `localhost.direct`, …); `*.localhost` and internal suffixes (`.internal`,
 * `.local`, `.svc`, `.home.arpa`, …). No DNS is resolved (Workers have no
 * resolver API): a public name whose records point at a private address is not caught here — Cloudflare's
 * egress does not route to private or loopback addresses, which is what covers that case (docs/security.md, Webhook URLs).
 * This module imports nothing from src/ (layer src/lib), so src/events and src/modules can both use it.
 */
import ipaddr from "ipaddr.js";

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
  // Cluster and service-discovery names (Kubernetes `*.svc`, `*.svc.cluster.local`, Consul, Docker).
  "svc",
  "cluster.local",
  "consul",
  "docker",
  "kube",
] as const;

/** Public names (and all their subdomains) that resolve to a loopback address. */
const LOOPBACK_ALIASES = [
  "localtest.me",
  "lvh.me",
  "vcap.me",
  "lacolhost.com",
  "localho.st",
  "fuf.me",
  "local.gd",
  "localhost.direct",
  "yoogle.com",
] as const;

/**
 * Wildcard-DNS services: every name under them resolves to an address spelled in the name (in more spellings
 * than any rule here can list) or chosen per query (rebinding services). Nothing under them is a merchant's.
 */
const WILDCARD_DNS_SERVICES = [
  "nip.io",
  "sslip.io",
  "xip.io",
  "xip.name",
  "nip.direct",
  "traefik.me",
  "backname.io",
  "ip6.name",
  "1u.ms",
  "rbndr.us",
  "lock.cmpxchg8b.com",
] as const;

/** Ports a webhook URL may name (besides https's default, 443). The local-development allowance takes any. */
export const WEBHOOK_PORTS = ["443"] as const;

const LOCAL_DEV_HOSTS = new Set(["localhost", "127.0.0.1"]);
// The dev allowance needs the literal spelling, so 2130706433 / 127.1 / 0x7f.1 stay rejected.
const LOCAL_DEV_RAW = /^https?:\/\/(?:localhost|127\.0\.0\.1)(?::[0-9]*)?(?:[/?]|$)/i;

function reject(reason: string): WebhookUrlResult {
  return { ok: false, reason };
}

function hasSuffix(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/**
 * `ponte-listen://<session id>`: an endpoint whose deliveries go to the `npm run listen` CLI over the WebSocket its
 * ListenDO holds (src/events/listen-do.ts), never over the network. Returns the session id, or null for any other URL.
 */
export function listenSessionId(raw: string): string | null {
  const m = /^ponte-listen:\/\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(raw);
  return m ? (m[1] ?? null) : null;
}

export function checkWebhookUrl(raw: string, options: WebhookUrlOptions): WebhookUrlResult {
  if (typeof raw !== "string" || raw.length === 0) return reject("URL is required");
  if (listenSessionId(raw) !== null) return { ok: true, url: raw };
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return reject(`URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  // new URL silently strips surrounding spaces and inner tabs/newlines; refuse them instead.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point of this check.
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
    if (url.port !== "" && !(WEBHOOK_PORTS as readonly string[]).includes(url.port))
      return reject(`URL port must be ${WEBHOOK_PORTS.join(" or ")} (the https default); ${url.port} is not allowed`);
  }

  const normalised = url.toString();
  if (normalised.length > MAX_WEBHOOK_URL_LENGTH) return reject(`URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  return { ok: true, url: normalised };
}

/** Returns a human-readable problem with the (already WHATWG-parsed) hostname, or null. */
function checkPublicHostname(hostname: string): string | null {
  if (hostname === "") return "URL must have a host name";
  // WHATWG parsing turns every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into a dotted quad and
  // brackets IPv6; ipaddr.js decides whether what is left is an address.
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(bare) || hostname.startsWith("[")) return "URL host must be a domain name, not an IP address";

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
  const embedded = embeddedAddresses(labels).find((address) => !isPublicAddress(address));
  if (embedded) return `URL host must be public; it names the non-public address ${embedded.toString()}`;
  const alias = LOOPBACK_ALIASES.find((name) => hasSuffix(host, name));
  if (alias) return `URL host must be public; "${alias}" names resolve to a loopback address`;
  const wildcard = WILDCARD_DNS_SERVICES.find((name) => hasSuffix(host, name));
  if (wildcard) return `URL host must be public; "${wildcard}" is a wildcard-DNS service whose names resolve to any address`;
  return null;
}

/** Only globally routable unicast addresses are public (ipaddr.js's range names everything else). */
export function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const target = address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
  return target.range() === "unicast";
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return ipaddr.isValid(text) ? ipaddr.parse(text) : null;
}

/** A numeric label the way resolvers and wildcard-DNS services may read it: decimal, octal (`0177`) or hex (`0x7f`). */
const NUMERIC_PART = /^(?:0x[0-9a-f]+|[0-9]+)$/;

/**
 * Every reading of a dotted numeric run: ipaddr.js's (inet_aton: a leading 0 is octal, 0x is hex, fewer than
 * four parts fill the last octets) and the plain decimal one (`127.000.000.001`, leading zeros ignored).
 */
function readingsOf(parts: string[]): ipaddr.IPv4[] {
  const readings: ipaddr.IPv4[] = [];
  const joined = parts.join(".");
  if (ipaddr.IPv4.isValid(joined)) readings.push(ipaddr.IPv4.parse(joined));
  if (parts.length === 4 && parts.every((p) => /^[0-9]+$/.test(p))) {
    const octets = parts.map((p) => Number.parseInt(p, 10));
    if (octets.every((o) => o <= 255)) readings.push(new ipaddr.IPv4(octets));
  }
  return readings;
}

/**
 * Addresses a wildcard-DNS name encodes, as nip.io / sslip.io / xip.io and their clones read them, in every
 * spelling: four numeric labels in a row (`10.0.0.1.x.io`, `127.000.000.001.x.io`, `0177.0.0.1.x.io`), one
 * long numeric label (`2130706433.x.io`, `0x7f000001.x.io`), a dashed quad inside a label
 * (`app-10-0-0-1.x.io`), an 8-hex-digit label (`7f000001.x.io`), and a dashed IPv6 label (`--1.x.io`).
 */
function embeddedAddresses(labels: string[]): (ipaddr.IPv4 | ipaddr.IPv6)[] {
  const found: (ipaddr.IPv4 | ipaddr.IPv6)[] = [];
  const add = (text: string) => {
    const address = parseAddress(text);
    if (address) found.push(address);
  };
  for (let i = 0; i + 4 <= labels.length; i++) {
    const quad = labels.slice(i, i + 4);
    if (quad.every((l) => NUMERIC_PART.test(l))) found.push(...readingsOf(quad));
  }
  for (const label of labels) {
    // One number for the whole address: hex, or a decimal/octal too long to be a short name (≥ 8 digits).
    if (/^0x[0-9a-f]{1,8}$/.test(label) || /^[0-9]{8,12}$/.test(label)) found.push(...readingsOf([label]));
    for (const m of label.matchAll(/(?:^|[^0-9])([0-9]{1,4})-([0-9]{1,4})-([0-9]{1,4})-([0-9]{1,4})(?![0-9])/g))
      found.push(...readingsOf(m.slice(1, 5) as string[]));
    for (const m of label.matchAll(/(?:^|[^0-9a-f])([0-9a-f]{8})(?![0-9a-f])/g)) {
      const n = Number.parseInt(m[1] ?? "", 16);
      add([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
    }
    if (label.includes("--")) {
      // sslip.io spells IPv6 with dashes for colons; a prefix like "app-" is not part of the address.
      const candidate = label.replace(/-/g, ":");
      for (let start = 0; start < candidate.length; start++) {
        if (start > 0 && candidate[start - 1] !== ":") continue;
        const address = parseAddress(candidate.slice(start));
        if (address instanceof ipaddr.IPv6) {
          found.push(address);
          break;
        }
      }
    }
  }
  return found;
}
