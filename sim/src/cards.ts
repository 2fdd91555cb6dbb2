// Card validation and tokenization. Card numbers are never logged or stored; only last 4 + brand.
import { badRequest, isObject, type Json } from "./http";
import type { Account, CardToken } from "./state";

/** Sandbox test cards that simulate a refused authorization (upstream docs). */
export const REFUSED_TEST_CARDS = new Set(["5184019740373151", "4916561358240741"]);

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const ELO_PREFIXES = [
  "401178",
  "401179",
  "431274",
  "438935",
  "451416",
  "457393",
  "504175",
  "506699",
  "5067",
  "509",
  "627780",
  "636297",
  "636368",
  "650",
  "6516",
  "6550",
];

export function cardBrand(number: string): string {
  if (ELO_PREFIXES.some((p) => number.startsWith(p))) return "ELO";
  if (/^4/.test(number)) return "VISA";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return "MASTERCARD";
  if (/^3[47]/.test(number)) return "AMEX";
  if (/^(36|38|30[0-5])/.test(number)) return "DINERS";
  if (/^(6011|65|64[4-9])/.test(number)) return "DISCOVER";
  if (/^35/.test(number)) return "JCB";
  return "UNKNOWN";
}

export function expiryValid(month: unknown, year: unknown, now = new Date()): boolean {
  const m = Number(month);
  let y = Number(year);
  if (!Number.isInteger(m) || m < 1 || m > 12 || !Number.isInteger(y)) return false;
  if (y < 100) y += 2000;
  const nowIndex = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return y * 12 + (m - 1) >= nowIndex;
}

const invalidCard = (description: string) => badRequest("invalid_creditCard", description);

export interface ChargedCard {
  creditCardNumber: string;
  creditCardBrand: string;
  creditCardToken: string;
}

/**
 * Validates a `creditCard` + `creditCardHolderInfo` pair and stores a token for it.
 * Refused test cards throw the upstream's "not authorized" error when `authorizing` is set.
 */
export function acceptCard(account: Account, customer: string, card: unknown, holder: unknown, authorizing: boolean): ChargedCard {
  if (!isObject(card)) throw invalidCard("Informe os dados do cartão de crédito.");
  if (!isObject(holder)) {
    throw badRequest("invalid_creditCardHolderInfo", "Informe os dados do titular do cartão de crédito.");
  }
  const number = String(card.number ?? "").replace(/[\s-]/g, "");
  if (typeof card.holderName !== "string" || card.holderName.trim() === "") {
    throw invalidCard("Informe o nome impresso no cartão.");
  }
  if (!luhnValid(number)) throw invalidCard("O número do cartão de crédito é inválido.");
  if (!expiryValid(card.expiryMonth, card.expiryYear)) {
    throw invalidCard("A data de validade do cartão de crédito é inválida.");
  }
  if (!/^\d{3,4}$/.test(String(card.ccv ?? ""))) throw invalidCard("O código de segurança do cartão é inválido.");
  for (const field of ["name", "email", "cpfCnpj", "postalCode", "addressNumber", "phone"]) {
    if (holder[field] === undefined || holder[field] === null || holder[field] === "") {
      throw badRequest("invalid_creditCardHolderInfo", `O campo ${field} do titular do cartão deve ser informado.`);
    }
  }
  if (authorizing && REFUSED_TEST_CARDS.has(number)) {
    throw invalidCard("Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.");
  }
  const stored: CardToken = { token: crypto.randomUUID(), customer, last4: number.slice(-4), brand: cardBrand(number) };
  account.cardTokens.set(stored.token, stored);
  return { creditCardNumber: stored.last4, creditCardBrand: stored.brand, creditCardToken: stored.token };
}

/** Charges a previously tokenized card. */
export function chargeToken(account: Account, token: unknown): ChargedCard {
  const stored = typeof token === "string" ? account.cardTokens.get(token) : undefined;
  if (!stored) throw badRequest("invalid_creditCardToken", "O token de cartão de crédito informado é inválido.");
  return { creditCardNumber: stored.last4, creditCardBrand: stored.brand, creditCardToken: stored.token };
}

/** `POST /v3/creditCard/tokenizeCreditCard`. */
export function tokenizeCreditCard(account: Account, body: Json): Json {
  const customer = body.customer;
  if (typeof customer !== "string" || !account.customers.has(customer)) {
    throw badRequest("invalid_customer", "Cliente inválido ou não informado.");
  }
  if (typeof body.remoteIp !== "string" || body.remoteIp === "") {
    throw badRequest("invalid_remoteIp", "O IP remoto deve ser informado.");
  }
  return { ...acceptCard(account, customer, body.creditCard, body.creditCardHolderInfo, false) };
}
