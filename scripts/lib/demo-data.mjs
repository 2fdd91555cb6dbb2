// The pieces of the demo history (scripts/lib/demo-history.mjs): a seeded PRNG, day arithmetic in
// São Paulo, SQL literals and multi-row INSERTs, and the names, plans and suppliers it draws from.
export const ZONE = "America/Sao_Paulo";

/** mulberry32: a small, fast, seeded PRNG (uniform in [0, 1)). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const localDay = (date, zone = ZONE) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
export const addDays = (day, n) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The same day of the month `n` months later, clamped to the month's last day. */
export function addMonths(day, n) {
  const [y, m, d] = day.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}
/** A local São Paulo day at a daytime hour, as an ISO instant (UTC−3: 12:00Z–20:59Z stays on that day). */
export const instant = (day, rand) =>
  `${day}T${String(12 + Math.floor(rand() * 9)).padStart(2, "0")}:${String(Math.floor(rand() * 60)).padStart(2, "0")}:00.000Z`;

/** A SQL literal; `{ sql }` is a subquery (a category id looked up by key). */
export const q = (v) =>
  v === null || v === undefined
    ? "NULL"
    : typeof v === "number"
      ? String(v)
      : typeof v === "object"
        ? v.sql
        : `'${String(v).replaceAll("'", "''")}'`;
/** Fixed-format v7-looking ids: kind (1 hex digit) and a counter, so a run's ids are the same every time. */
/** `space` (0–255) keeps the ids of several generated histories apart (bench:scale's other organizations). */
export const demoId = (kind, n, space = 0) =>
  `01900000-0000-7000-8${kind}${space.toString(16).padStart(2, "0")}-${n.toString(16).padStart(12, "0")}`;

export function cpf(rand) {
  const d = Array.from({ length: 9 }, () => Math.floor(rand() * 10));
  for (const len of [9, 10]) {
    const sum = d.slice(0, len).reduce((s, x, i) => s + x * (len + 1 - i), 0);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  return d.join("");
}

export const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Diego",
  "Elisa",
  "Felipe",
  "Gabriela",
  "Heitor",
  "Isabela",
  "João",
  "Larissa",
  "Marcos",
  "Natália",
  "Otávio",
  "Paula",
  "Rafael",
  "Sofia",
  "Tiago",
  "Vitória",
  "Yuri",
];
export const LAST = [
  "Silva",
  "Souza",
  "Oliveira",
  "Santos",
  "Pereira",
  "Lima",
  "Carvalho",
  "Ferreira",
  "Rodrigues",
  "Almeida",
  "Costa",
  "Gomes",
  "Martins",
  "Araújo",
  "Barbosa",
];
export const COMPANY = ["Padaria", "Estúdio", "Clínica", "Oficina", "Escola", "Loja", "Café", "Agência", "Academia", "Pet Shop"];
export const PLACE = ["Aurora", "Horizonte", "Central", "do Bairro", "Vila Nova", "Boa Vista", "Jardim", "Estrela", "Mar Azul", "Serra"];

export const PLANS = [
  { key: "starter", name: "Starter", valueCents: 4990, cycle: "MONTHLY", weight: 45, churn: 0.05 },
  { key: "pro", name: "Pro", valueCents: 14990, cycle: "MONTHLY", weight: 35, churn: 0.03 },
  { key: "business", name: "Business", valueCents: 49900, cycle: "MONTHLY", weight: 12, churn: 0.02 },
  { key: "pro_annual", name: "Pro Anual", valueCents: 149900, cycle: "YEARLY", weight: 8, churn: 0.1 },
];
export const BILLING = [
  ["PIX", 50],
  ["BOLETO", 25],
  ["CREDIT_CARD", 25],
];
/** The upstream's fee per charge (what value − netValue comes to). */
export const fee = (billingType, valueCents) =>
  billingType === "PIX" ? 99 : billingType === "BOLETO" ? 199 : Math.round(valueCents * 0.0299) + 49;

export const SUPPLIERS = [
  ["aws", "Amazon Web Services", "infrastructure", "https://aws.amazon.com"],
  ["github", "GitHub", "software", "https://github.com"],
  ["google_ws", "Google Workspace", "software", "https://workspace.google.com"],
  ["google_ads", "Google Ads", "marketing", "https://ads.google.com"],
  ["meta", "Meta Ads", "marketing", "https://www.facebook.com/business"],
  ["contabil", "Contabilidade Exata Ltda", "other", null],
  ["receita", "Receita Federal (Simples Nacional)", "taxes", "https://www.gov.br/receitafederal"],
  ["folha", "Equipe (folha de pagamento)", "payroll", null],
];

export function pick(rand, weighted) {
  const total = weighted.reduce((s, w) => s + w[1], 0);
  let r = rand() * total;
  for (const [v, w] of weighted) {
    r -= w;
    if (r < 0) return v;
  }
  return weighted[weighted.length - 1][0];
}

/** USD cents × BRL-per-USD micros → BRL cents, half-even (as src/lib/exchange.ts converts). */
export function usdToBrlCents(usdCents, rateMicros) {
  const scaled = BigInt(usdCents) * BigInt(rateMicros);
  const q = scaled / 1_000_000n;
  const r = scaled % 1_000_000n;
  const up = r * 2n > 1_000_000n || (r * 2n === 1_000_000n && q % 2n === 1n);
  return Number(up ? q + 1n : q);
}

export const cols = (names) => names.split(" ");

/**
 * Multi-row INSERTs (`chunk` rows each) that apply only while `guard` (a SQL condition) holds: every
 * statement of the demo history is guarded by "the workspace has no plans" and the plans go in last,
 * in one statement, so a workspace that already has plans gets nothing, and one that has none gets
 * everything, in one file.
 */
export function insertAll(table, columns, rows, guard, chunk = 100) {
  const out = [];
  const names = columns.map((c) => c.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)).join(", ");
  for (let i = 0; i < rows.length; i += chunk) {
    const values = rows
      .slice(i, i + chunk)
      .map((r) => `(${columns.map((c) => q(r[c])).join(", ")})`)
      .join(",\n  ");
    out.push(`INSERT INTO ${table} (${names}) SELECT * FROM (VALUES\n  ${values}) WHERE ${guard};`);
  }
  return out.join("\n");
}
