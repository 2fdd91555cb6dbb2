import { describe, expect, it } from "vitest";
import ipaddr from "ipaddr.js";
import { checkWebhookUrl, isPublicAddress, MAX_WEBHOOK_URL_LENGTH } from "../../src/lib/url-policy";

const STRICT = { allowLocalhostHttp: false };
const LOCAL = { allowLocalhostHttp: true };

describe("checkWebhookUrl — accepted (both modes)", () => {
  it.each([
    ["https://example.com/hooks", "https://example.com/hooks"],
    ["https://hooks.merchant.com.br/x?y=1", "https://hooks.merchant.com.br/x?y=1"],
    ["https://EXAMPLE.com/Hooks", "https://example.com/Hooks"], // host lower-cased, path kept
    ["https://example.com", "https://example.com/"],
    ["https://example.com:443/a", "https://example.com/a"], // default port dropped
    ["https://api.loja-exemplo.com.br/webhooks/ponte?token=abc&x=1", "https://api.loja-exemplo.com.br/webhooks/ponte?token=abc&x=1"],
    ["https://bücher.com.br/h", "https://xn--bcher-kva.com.br/h"], // IDN → punycode
    ["https://example.com./hooks", "https://example.com./hooks"], // FQDN trailing dot
    ["https://my_service.example.com/h", "https://my_service.example.com/h"],
    ["https://1.2.3.4.hooks.com.br/h", "https://1.2.3.4.hooks.com.br/h"], // name, not an IP literal
    ["https://example.com/ünïcode", "https://example.com/%C3%BCn%C3%AFcode"],
  ] as const)("%s", (raw, expected) => {
    expect(checkWebhookUrl(raw, STRICT)).toEqual({ ok: true, url: expected });
    expect(checkWebhookUrl(raw, LOCAL)).toEqual({ ok: true, url: expected });
  });
});

describe("checkWebhookUrl — rejected (both modes)", () => {
  it.each([
    // scheme
    ["http://example.com", /must use https/],
    ["http://example.com:443/", /must use https/],
    ["ftp://example.com/hooks", /must use https/],
    ["ws://example.com/hooks", /must use https/],
    ["wss://example.com/hooks", /must use https/],
    ["javascript:alert(1)", /must use https/],
    ["data:text/plain,hello", /must use https/],
    ["file:///etc/passwd", /must use https/],
    // not a URL
    ["", /required/],
    ["example.com/hooks", /not a valid absolute URL/],
    ["//example.com/hooks", /not a valid absolute URL/],
    ["https://", /not a valid absolute URL/],
    ["https://exa mple.com", /spaces/],
    [" https://example.com", /spaces/],
    ["https://example.com/ ", /spaces/],
    ["https://exa\nmple.com", /control/],
    ["https://exam\tple.com", /control/],
    ["https://example.com/a\u0000", /control/],
    // userinfo
    ["https://user:pw@example.com", /username or password/],
    ["https://user@example.com", /username or password/],
    ["https://:pw@example.com", /username or password/],
    // fragments
    ["https://example.com/hooks#frag", /fragment/],
    ["https://example.com/#", /fragment/],
    // IP literals, every spelling
    ["https://10.0.0.1", /not an IP address/],
    ["https://192.168.1.10:8443/h", /not an IP address/],
    ["https://169.254.169.254/latest/meta-data", /not an IP address/],
    ["https://8.8.8.8", /not an IP address/],
    ["https://2130706433", /not an IP address/],
    ["https://0x7f000001", /not an IP address/],
    ["https://0x7f.1", /not an IP address/],
    ["https://0177.0.0.1", /not an IP address/],
    ["https://127.1", /not an IP address/],
    ["https://%31%32%37.0.0.1", /not an IP address/],
    ["https://[::1]", /not an IP address/],
    ["https://[fd00::1]", /not an IP address/],
    ["https://[::ffff:127.0.0.1]", /not an IP address/],
    ["https://[2001:4860:4860::8888]/h", /not an IP address/],
    // localhost and internal names
    ["https://localhost.", /localhost/],
    ["https://api.localhost", /localhost/],
    ["https://intranet", /single-label/],
    ["https://printer", /single-label/],
    ["https://metadata.google.internal", /\.internal/],
    ["https://printer.local", /\.local"/],
    ["https://printer.local.", /\.local"/],
    ["https://nas.localdomain", /\.localdomain/],
    ["https://wiki.intranet", /\.intranet/],
    ["https://router.lan", /\.lan/],
    ["https://router.home", /\.home/],
    ["https://router.home.arpa", /\.home\.arpa|\.arpa/],
    ["https://1.0.0.127.in-addr.arpa", /\.arpa/],
    ["https://erp.corp", /\.corp/],
    ["https://db.private", /\.private/],
    ["https://shop.test", /\.test/],
    ["https://shop.example", /\.example/],
    ["https://shop.invalid", /\.invalid/],
    ["https://abcdefghijklmnop.onion", /\.onion/],
    // numeric TLD (the WHATWG parser already refuses these; either way they are rejected)
    ["https://foo.123", /numeric label|not a valid absolute URL/],
    ["https://foo.0x1", /numeric label|not a valid absolute URL/],
    // malformed names
    ["https://a..b.com/", /empty label/],
    ["https://*.example.com/", /invalid characters/],
    // port
    ["https://example.com:0/hooks", /port must not be 0/],
    ["https://example.com:65536/hooks", /not a valid absolute URL/],
    // only https's own port (issue 26 #11)
    ["https://hooks.merchant.com.br:8443/x", /port must be 443.*8443 is not allowed/],
    ["https://example.com:1/a", /port must be 443/],
    ["https://example.com:22/a", /port must be 443/],
    ["https://example.com:80/a", /port must be 443/],
    ["https://example.com:6379/a", /port must be 443/],
    ["https://example.com:65535/a", /port must be 443/],
    // cluster and service-discovery names (issue 26 #11)
    ["https://payments.default.svc/h", /"\.svc"/],
    ["https://payments.default.svc.cluster.local/h", /"\.(svc|local|cluster\.local)"/],
    ["https://vault.service.consul/h", /"\.consul"/],
    ["https://host.docker.internal/h", /"\.internal"/],
    ["https://api.prod.internal./h", /"\.internal"/],
  ] as const)("%j", (raw, reason) => {
    for (const opts of [STRICT, LOCAL]) {
      const result = checkWebhookUrl(raw, opts);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(reason);
    }
  });

  it("does not treat names that merely contain a blocked word as blocked", () => {
    expect(checkWebhookUrl("https://local.example.com.br/h", STRICT).ok).toBe(true);
    expect(checkWebhookUrl("https://internal-tools.com/h", STRICT).ok).toBe(true);
    expect(checkWebhookUrl("https://mylocalhost.com/h", STRICT).ok).toBe(true);
    expect(checkWebhookUrl("https://testing.com/h", STRICT).ok).toBe(true);
  });

  it("limits the length to 2048 characters", () => {
    const base = "https://example.com/";
    const exact = base + "a".repeat(MAX_WEBHOOK_URL_LENGTH - base.length);
    expect(exact).toHaveLength(2048);
    expect(checkWebhookUrl(exact, STRICT)).toEqual({ ok: true, url: exact });
    expect(checkWebhookUrl(`${exact}a`, STRICT)).toEqual({ ok: false, reason: "URL must be at most 2048 characters" });
    // Normalisation can grow the URL (percent-encoding); the result is limited too.
    const growing = base + "é".repeat(1000);
    expect(growing.length).toBeLessThanOrEqual(2048);
    expect(checkWebhookUrl(growing, STRICT)).toEqual({ ok: false, reason: "URL must be at most 2048 characters" });
  });
});

describe("checkWebhookUrl — local development allowance", () => {
  it.each([
    ["http://localhost", "http://localhost/"],
    ["http://localhost:8787/webhooks", "http://localhost:8787/webhooks"],
    ["http://LOCALHOST:3000/x?y=1", "http://localhost:3000/x?y=1"],
    ["http://127.0.0.1:3000/hooks", "http://127.0.0.1:3000/hooks"],
    ["https://localhost:8443/hooks", "https://localhost:8443/hooks"],
    ["https://127.0.0.1/hooks", "https://127.0.0.1/hooks"],
    ["https://LOCALHOST", "https://localhost/"],
  ])("%s is accepted only when allowed", (raw, expected) => {
    expect(checkWebhookUrl(raw, LOCAL)).toEqual({ ok: true, url: expected });
    expect(checkWebhookUrl(raw, STRICT).ok).toBe(false);
  });

  it("rejects https://localhost and https://127.0.0.1 with a precise reason when not allowed", () => {
    expect(checkWebhookUrl("https://localhost:8443/", STRICT)).toEqual({ ok: false, reason: "URL host must not be localhost" });
    expect(checkWebhookUrl("https://127.0.0.1/", STRICT)).toEqual({
      ok: false,
      reason: "URL host must be a domain name, not an IP address",
    });
  });

  it("gives the https reason for http://localhost when not allowed", () => {
    expect(checkWebhookUrl("http://localhost:8787/", STRICT)).toEqual({ ok: false, reason: "URL must use https" });
  });

  it.each([
    ["http://127.0.0.2:3000/", /must use https/],
    ["https://127.0.0.2:3000/", /not an IP address/],
    ["http://[::1]:3000/", /must use https/],
    ["http://api.localhost:3000/", /must use https/],
    ["http://10.0.0.1/", /must use https/],
    ["http://user:pw@localhost:3000/", /username or password/],
    ["http://localhost:3000/#x", /fragment/],
    ["http://localhost:0/", /port must not be 0/],
    ["ftp://localhost/", /must use https/],
    // Only the literal spellings get the allowance, not other spellings of 127.0.0.1.
    ["http://2130706433:3000/", /must use https/],
    ["http://127.1:3000/", /must use https/],
    ["https://0x7f000001/", /not an IP address/],
    ["https://0177.0.0.1/", /not an IP address/],
    ["http://localhost.:3000/", /must use https/],
  ] as const)("still rejects %s when allowed", (raw, reason) => {
    const result = checkWebhookUrl(raw, LOCAL);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe("checkWebhookUrl — names that embed or alias a non-public address (issue 10 #9)", () => {
  it.each([
    "https://127.0.0.1.nip.io/h",
    "https://app.10.0.0.1.nip.io/h",
    "https://192.168.1.20.sslip.io/h",
    "https://169.254.169.254.nip.io/latest",
    "https://app-10-0-0-1.sslip.io/h",
    "https://127-0-0-1.nip.io/h",
    "https://7f000001.nip.io/h",
    "https://0a000001.nip.io/h",
    "https://--1.sslip.io/h",
    "https://fe80--1.sslip.io/h",
    "https://fd00--1.sslip.io/h",
    "https://100.64.0.1.nip.io/h",
    "https://0.0.0.0.nip.io/h",
    "https://localtest.me/h",
    "https://anything.localtest.me/h",
    "https://lvh.me/h",
    "https://shop.vcap.me/h",
    "https://api.localhost/h",
    "https://a.b.localhost./h",
    // issue 26 #11: every spelling, and the wildcard-DNS services themselves
    "https://127.000.000.001.nip.io/h",
    "https://0177.0.0.1.nip.io/h",
    "https://2130706433.nip.io/h",
    "https://0x7f000001.nip.io/h",
    "https://localhost.direct/h",
    "https://app.localhost.direct/h",
    "https://1.2.3.4.nip.io/h",
    "https://app-8-8-8-8.sslip.io/h",
    "https://anything.xip.io/h",
    "https://7f000001.c0a80001.rbndr.us/h",
    "https://make-1.2.3.4-rebind-127.0.0.1-rr.1u.ms/h",
    // the same spellings under a name that is not a known service
    "https://127.000.000.001.dns-clone.com/h",
    "https://0177.0.0.1.dns-clone.com/h",
    "https://010.0.0.1.dns-clone.com/h",
    "https://2130706433.dns-clone.com/h",
    "https://017700000001.dns-clone.com/h",
    "https://0x7f000001.dns-clone.com/h",
    "https://0x7f.0.0.1.dns-clone.com/h",
    "https://app-127-000-000-001.dns-clone.com/h",
    "https://app-0177-0-0-1.dns-clone.com/h",
  ])("%s is rejected in both modes", (raw) => {
    for (const opts of [STRICT, LOCAL]) {
      const result = checkWebhookUrl(raw, opts);
      expect(result.ok, raw).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/public|localhost/);
    }
  });

  it.each([
    "https://1.2.3.4.dns-clone.com/h", // a public address embedded outside a wildcard-DNS service: allowed
    "https://app-8-8-8-8.dns-clone.com/h",
    "https://2024.loja.com.br/h", // a short number is a name, not an address
    "https://123.example.com/h",
    "https://hooks.merchant.com.br/ponte",
    "https://v2-api.example.com.br/h",
    "https://shop-2024.com.br/h",
    "https://cafe1234.com/h",
  ])("%s is accepted", (raw) => {
    expect(checkWebhookUrl(raw, STRICT).ok).toBe(true);
  });
});

describe("isPublicAddress (ipaddr.js ranges)", () => {
  it.each([
    ["8.8.8.8", true],
    ["2001:4860:4860::8888", true],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["192.168.0.1", false],
    ["127.0.0.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["255.255.255.255", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd12::1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:8.8.8.8", true],
  ] as const)("%s → %s", (address, expected) => {
    expect(isPublicAddress(ipaddr.parse(address))).toBe(expected);
  });
});
