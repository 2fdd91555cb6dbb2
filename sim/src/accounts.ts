// The account itself (commercial info, invoice customisation, account number, fees, status, wallet, closing it)
// and its subaccounts (with their API keys and escrow settings). Settings are per-path singletons.
import type { Handler, SimContext } from "./context";
import { type Resource, createIn, find, formOrBody, getIn, insert, listIn, resource, singleton, updateIn } from "./engine";
import { badRequest, isDateString, listBody, newId, randomDigits, readPage, type Json } from "./http";
import { collection } from "./records";

/** A stable uuid-like id derived from the account's token (its wallet). */
function walletIdOf(ctx: SimContext): string {
  let record = ctx.account.singletons.get("wallet");
  if (!record) {
    record = { object: "wallet", id: crypto.randomUUID() };
    ctx.account.singletons.set("wallet", record);
  }
  return String(record.id);
}

export const commercialInfo = singleton("AccountInfoGetResponse", {
  status: "APPROVED",
  personType: "JURIDICA",
  cpfCnpj: "66625514000140",
  name: "Conta Sandbox Ponte",
  email: "conta@ponte-sim.invalid",
  companyType: "LIMITED",
});

export const checkoutConfig = singleton("PaymentCheckoutConfigGetResponse", {
  logoBackgroundColor: "#FFFFFF",
  infoBackgroundColor: "#FFFFFF",
  fontColor: "#000000",
  enabled: false,
  status: "AWAITING_APPROVAL",
});

export const accountStatus = singleton(
  "MyAccountGetStatusResponse",
  { commercialInfo: "PENDING", bankAccountInfo: "PENDING", documentation: "PENDING", general: "PENDING" },
  () => "myAccount/status",
);

/** `POST /sandbox/myAccount/approve`: every part of the account's registration becomes APPROVED. */
export const approveAccount: Handler = (ctx) => {
  const status = accountStatus.get(ctx) as Json;
  Object.assign(status, { commercialInfo: "APPROVED", bankAccountInfo: "APPROVED", documentation: "APPROVED", general: "APPROVED" });
  return status;
};

export const accountNumber: Handler = (ctx) => {
  const digits = walletIdOf(ctx).replace(/\D/g, "").padEnd(7, "0");
  return { agency: "0001", account: digits.slice(0, 6), accountDigit: digits.slice(6, 7) };
};

/** `GET /myAccount/fees`: the simulator's fee table (the same fees payment-records.ts deducts). */
export const accountFees: Handler = () => ({
  payment: {
    bankSlip: { defaultValue: 1.99, discountValue: null, expirationDate: null, daysToReceive: 1 },
    creditCard: {
      operationValue: 0.49,
      oneInstallmentPercentage: 2.99,
      upToSixInstallmentsPercentage: 2.99,
      upToTwelveInstallmentsPercentage: 2.99,
      upToTwentyOneInstallmentsPercentage: 2.99,
      daysToReceive: 30,
    },
    pix: {
      fixedFeeValue: 0.99,
      percentageFee: null,
      minimumFeeValue: null,
      maximumFeeValue: null,
      monthlyCreditsWithoutFee: 0,
      creditsReceivedOfCurrentMonth: 0,
    },
  },
  transfer: {
    monthlyTransfersWithoutFee: 0,
    ted: { feeValue: 5, consideredInMonthlyTransfersWithoutFee: false },
    pix: { feeValue: 0, consideredInMonthlyTransfersWithoutFee: false },
  },
});

/** `GET /wallets`: the account's one wallet, paged by offset/limit like every upstream list. */
export const wallets: Handler = (ctx) => listBody([{ object: "wallet", id: walletIdOf(ctx) }], readPage(ctx.query));

/** `DELETE /myAccount`: closes the (white-label) account; later calls keep working in the simulator. */
export const deleteMyAccount: Handler = (ctx) => {
  ctx.account.singletons.set("myAccount/closed", { removeReason: ctx.query.get("removeReason") });
  return { observations: "Conta desabilitada com sucesso" };
};

export const subaccounts = resource("subaccounts", "AccountGetResponse", "Subconta não encontrada.");

export const subaccountHandlers = {
  /** `POST /accounts`: answers the new account's API key once (a working simulator token). */
  create: ((ctx) => {
    const body = formOrBody(ctx);
    if (body.birthDate !== undefined && !isDateString(body.birthDate))
      throw badRequest("invalid_birthDate", "Data de nascimento inválida.");
    const account = insert(ctx, subaccounts, body, undefined, ["name", "email", "cpfCnpj"]);
    Object.assign(account, {
      walletId: crypto.randomUUID(),
      loginEmail: account.loginEmail ?? account.email,
      accountNumber: { agency: "0001", account: randomDigits(6), accountDigit: randomDigits(1) },
    });
    return { ...account, apiKey: `$aact_hmlg_${crypto.randomUUID().replace(/-/g, "")}` };
  }) as Handler,
  list: listIn(subaccounts),
  get: getIn(subaccounts),
  resendActivationLink: ((ctx) => {
    find(ctx, subaccounts);
    return new Response(null, { status: 204 });
  }) as Handler,
  close: ((ctx) => {
    const account = find(ctx, subaccounts);
    collection(ctx.account, "subaccounts").delete(String(account.id));
    return { observations: `Subconta ${String(account.id)} encerrada.` };
  }) as Handler,
};

const tokens: Resource = {
  dto: "CustomerApiAccessTokenBaseResponse",
  key: (ctx) => `accessTokens:${ctx.params.id}`,
  param: "accessTokenId",
  missing: "Chave de API não encontrada.",
  parent: (ctx) => void find(ctx, subaccounts),
};

export const accessTokenHandlers = {
  create: ((ctx) => {
    const token = createIn(tokens, ["name"], (_c, t) => {
      t.enabled = true;
      t.id = newId("tok");
    })(ctx) as Json;
    return { ...token, apiKey: `$aact_hmlg_${crypto.randomUUID().replace(/-/g, "")}` };
  }) as Handler,
  list: listIn(tokens),
  update: updateIn(tokens),
  remove: ((ctx) => {
    const token = find(ctx, tokens);
    collection(ctx.account, tokens.key(ctx)).delete(String(token.id));
    return new Response(null, { status: 204 });
  }) as Handler,
};

export const defaultEscrow = singleton(
  "AccountPaymentEscrowConfig",
  { enabled: false, daysToExpire: 30, isFeePayer: false },
  () => "escrow/default",
);

const subaccountEscrow = singleton(
  "AccountPaymentEscrowConfig",
  { enabled: false, daysToExpire: 30, isFeePayer: false },
  (ctx) => `escrow/${ctx.params.id}`,
);

export const subaccountEscrowHandlers = {
  get: ((ctx) => {
    find(ctx, subaccounts);
    return subaccountEscrow.get(ctx);
  }) as Handler,
  save: ((ctx) => {
    find(ctx, subaccounts);
    return subaccountEscrow.save(ctx);
  }) as Handler,
};

export const preAuthorizationConfig = singleton(
  "CreditCardPreAuthorizationConfigResponse",
  { expirationInDays: 7 },
  () => "creditCard/preAuthorization",
);
