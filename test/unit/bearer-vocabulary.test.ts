// The Bearer dialect's vocabulary for upstream answers and events: money as decimal strings, date-times in
// UTC, lists in Ponte's envelope, held records' ids as Ponte UUIDs — and nothing else touched.
import { describe, expect, it } from "vitest";
import { bearerAnswer, bearerEvent, toPonteDto, upstreamIdsOfAnswer, upstreamIdsOfEvent } from "../../src/compat/bearer-vocabulary";
import { upstreamMoneyToDecimal } from "../../src/lib/money";
import { zonedDateTimeToUtc } from "../../src/lib/time-zones";

const NONE = new Map<string, string>();
const CUSTOMER_UUID = "0b6f3c1e-8f4e-4b7a-9f2d-1a2b3c4d5e6f";
const PAYMENT_UUID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

describe("upstreamMoneyToDecimal", () => {
  it.each([
    [0, "0.00"],
    [-0, "0.00"],
    [0.1, "0.10"],
    [0.01, "0.01"],
    [49.01, "49.01"],
    [50, "50.00"],
    [129.9, "129.90"],
    [0.3, "0.30"],
    [-1.5, "-1.50"],
    [-49.01, "-49.01"],
    [1000000000, "1000000000.00"],
    [99999999.99, "99999999.99"],
  ])("%s → %s", (n, text) => {
    expect(upstreamMoneyToDecimal(n)).toBe(text);
  });

  it("never rounds a value finer than a centavo: its exact decimal text", () => {
    expect(upstreamMoneyToDecimal(1e-7)).toBe("0.0000001");
    expect(upstreamMoneyToDecimal(-1e-7)).toBe("-0.0000001");
    expect(upstreamMoneyToDecimal(10.005)).toBe("10.005");
    expect(upstreamMoneyToDecimal(0.1 + 0.2)).toBe("0.30000000000000004");
  });

  it("writes values above Ponte's own maximum in full, without exponent", () => {
    expect(upstreamMoneyToDecimal(1000000000.01)).toBe("1000000000.01");
    expect(upstreamMoneyToDecimal(1.5e21)).toBe("1500000000000000000000.00");
    expect(upstreamMoneyToDecimal(-25000000000)).toBe("-25000000000.00");
  });

  it("throws for what JSON cannot carry", () => {
    expect(() => upstreamMoneyToDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => upstreamMoneyToDecimal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("zonedDateTimeToUtc (the upstream's São Paulo wall time)", () => {
  const sp = (local: string) => zonedDateTimeToUtc(local, "America/Sao_Paulo");

  it("is UTC−3 today, across midnight and the year's end", () => {
    expect(sp("2026-11-26 17:00:00")).toBe("2026-11-26T20:00:00.000Z");
    expect(sp("2026-11-26 21:30:15")).toBe("2026-11-27T00:30:15.000Z");
    expect(sp("2026-12-31 23:59:59")).toBe("2027-01-01T02:59:59.000Z");
    expect(sp("2027-01-01 00:00:00")).toBe("2027-01-01T03:00:00.000Z");
  });

  it("keeps the DST of years before 2019 (UTC−2 in summer)", () => {
    expect(sp("2018-12-01 12:00:00")).toBe("2018-12-01T14:00:00.000Z");
    expect(sp("2018-07-01 12:00:00")).toBe("2018-07-01T15:00:00.000Z");
  });

  it("reads a wall time DST skipped with the earlier offset, an ambiguous one as its first occurrence", () => {
    // 2018-11-04 00:00 −03 became 01:00 −02: 00:30 never happened.
    expect(sp("2018-11-04 00:30:00")).toBe("2018-11-04T03:30:00.000Z");
    expect(sp("2018-11-04 01:30:00")).toBe("2018-11-04T03:30:00.000Z");
    // 2019-02-17 00:00 −02 went back to 2019-02-16 23:00 −03: 23:30 happened twice.
    expect(sp("2019-02-16 23:30:00")).toBe("2019-02-17T01:30:00.000Z");
    expect(sp("2019-02-17 00:30:00")).toBe("2019-02-17T03:30:00.000Z");
  });

  it("answers undefined for anything that is not a local date-time", () => {
    for (const value of ["2026-11-26", "2026-11-26T20:00:00.000Z", "2026-02-30 10:00:00", "2026-11-26 24:00:00", "ontem"]) {
      expect(sp(value)).toBeUndefined();
    }
  });
});

describe("toPonteDto", () => {
  const upstreamPayment = {
    object: "payment",
    id: "pay_123",
    dateCreated: "2026-11-26",
    customer: "cus_9",
    subscription: null,
    value: 50,
    netValue: 49.01,
    billingType: "PIX",
    status: "RECEIVED",
    dueDate: "2026-11-30",
    discount: { value: 5, dueDateLimitDays: 0, type: "PERCENTAGE" },
    interest: { value: 2 },
    fine: { value: 1, type: "PERCENTAGE" },
    clientPaymentDate: "2026-11-26",
  };

  it("converts money, keeps dates and fields the shapes do not mark (percentages, days, enums) as sent", () => {
    const out = toPonteDto(upstreamPayment, "PaymentGetResponse", NONE) as Record<string, unknown>;
    expect(out).toMatchObject({
      value: "50.00",
      netValue: "49.01",
      dateCreated: "2026-11-26",
      dueDate: "2026-11-30",
      billingType: "PIX",
      status: "RECEIVED",
      subscription: null,
      discount: { value: 5, dueDateLimitDays: 0, type: "PERCENTAGE" },
      interest: { value: 2 },
      fine: { value: 1, type: "PERCENTAGE" },
    });
  });

  it("gives a held record its Ponte UUID, keeps the upstream id as upstreamId, and translates references", () => {
    const ids = new Map([
      ["pay_123", PAYMENT_UUID],
      ["cus_9", CUSTOMER_UUID],
    ]);
    const out = toPonteDto(upstreamPayment, "PaymentGetResponse", ids) as Record<string, unknown>;
    expect(out.id).toBe(PAYMENT_UUID);
    expect(out.upstreamId).toBe("pay_123");
    expect(out.customer).toBe(CUSTOMER_UUID);
    // Unknown to Ponte: the upstream's id stays in both.
    const unknown = toPonteDto(upstreamPayment, "PaymentGetResponse", NONE) as Record<string, unknown>;
    expect(unknown).toMatchObject({ id: "pay_123", upstreamId: "pay_123", customer: "cus_9" });
  });

  it("leaves ids of objects Ponte never holds (a transfer) as the upstream's, without upstreamId", () => {
    const out = toPonteDto({ object: "transfer", id: "tra_1", value: 10, transferFee: 0 }, "TransferGetResponse", NONE) as Record<
      string,
      unknown
    >;
    expect(out).toEqual({ object: "transfer", id: "tra_1", value: "10.00", transferFee: "0.00" });
  });

  it("converts nested DTOs and arrays of them", () => {
    const installment = {
      object: "installment",
      id: "ins_1",
      value: 300,
      netValue: 290.5,
      paymentValue: 100,
      installmentCount: 3,
      customer: "cus_9",
      dateCreated: "2026-11-26",
      refunds: [
        { dateCreated: "2026-11-26 17:00:00", status: "DONE", value: 10.1, description: null },
        { dateCreated: "2026-11-27 09:15:00", status: "PENDING", value: 0.5, description: "x" },
      ],
    };
    const out = toPonteDto(installment, "InstallmentGetResponse", new Map([["cus_9", CUSTOMER_UUID]])) as Record<string, unknown>;
    expect(out).toMatchObject({
      value: "300.00",
      netValue: "290.50",
      paymentValue: "100.00",
      installmentCount: 3,
      customer: CUSTOMER_UUID,
    });
    expect(out.refunds).toEqual([
      { dateCreated: "2026-11-26T20:00:00.000Z", status: "DONE", value: "10.10", description: null },
      { dateCreated: "2026-11-27T12:15:00.000Z", status: "PENDING", value: "0.50", description: "x" },
    ]);
  });

  it("does not touch the input", () => {
    const input = { object: "transfer", id: "tra_1", value: 10 };
    toPonteDto(input, "TransferGetResponse", NONE);
    expect(input.value).toBe(10);
  });
});

describe("bearerAnswer", () => {
  it("an object answer: the balance as a decimal string", () => {
    expect(bearerAnswer("recuperar-saldo-da-conta", { balance: 1234.5 }, NONE)).toEqual({ data: { balance: "1234.50" } });
  });

  it("a list becomes Ponte's: the items as data, the upstream's paging as pagination", () => {
    const body = {
      object: "list",
      hasMore: true,
      totalCount: 3,
      limit: 2,
      offset: 0,
      data: [
        { object: "transfer", id: "tra_1", value: 10, netValue: 10, transferFee: 0, dateCreated: "2026-11-26" },
        { object: "transfer", id: "tra_2", value: 20.25, netValue: 20.25, transferFee: 0, dateCreated: "2026-11-26" },
      ],
    };
    const out = bearerAnswer("listar-transferencias", body, NONE);
    expect(out.pagination).toEqual({ limit: 2, offset: 0, totalCount: 3, hasMore: true });
    expect(out.data).toEqual([
      { object: "transfer", id: "tra_1", value: "10.00", netValue: "10.00", transferFee: "0.00", dateCreated: "2026-11-26" },
      { object: "transfer", id: "tra_2", value: "20.25", netValue: "20.25", transferFee: "0.00", dateCreated: "2026-11-26" },
    ]);
  });

  it("an answer not shaped as documented, and operations without a DTO, go as they came", () => {
    const odd = { object: "list", data: "nope" };
    expect(bearerAnswer("listar-transferencias", odd, NONE)).toEqual({ data: odd });
    expect(bearerAnswer("no-such-operation", { value: 1 }, NONE)).toEqual({ data: { value: 1 } });
  });

  it("names the held ids to look up, nested and listed ones included, and none for a balance", () => {
    const body = {
      object: "list",
      data: [
        { object: "payment", id: "pay_1", customer: "cus_1" },
        { id: "pay_2", customer: "cus_1" },
      ],
    };
    expect(upstreamIdsOfAnswer("listar-cobrancas", body).sort()).toEqual(["cus_1", "pay_1", "pay_2"]);
    expect(upstreamIdsOfAnswer("recuperar-saldo-da-conta", { balance: 1 })).toEqual([]);
  });
});

describe("bearerEvent", () => {
  it("converts the envelope's dateCreated and each entry by its object, keeping the event's own id", () => {
    const envelope = {
      id: "evt_05b708f961d739ea7eba7e4db318f621&368604920",
      event: "TRANSFER_DONE",
      dateCreated: "2026-11-26 17:00:00",
      transfer: { object: "transfer", id: "tra_1", value: 50, netValue: 49.01, transferFee: 0.99, dateCreated: "2026-11-26" },
    };
    expect(bearerEvent(envelope, NONE)).toEqual({
      id: envelope.id,
      event: "TRANSFER_DONE",
      dateCreated: "2026-11-26T20:00:00.000Z",
      transfer: { object: "transfer", id: "tra_1", value: "50.00", netValue: "49.01", transferFee: "0.99", dateCreated: "2026-11-26" },
    });
  });

  it("a payment entry gets Ponte ids; unknown entries stay", () => {
    const envelope = {
      id: "evt_1",
      event: "PAYMENT_CHECKOUT_VIEWED",
      payment: { object: "payment", id: "pay_1", customer: "cus_1", value: 10 },
      extra: { value: 3 },
    };
    expect(upstreamIdsOfEvent(envelope).sort()).toEqual(["cus_1", "pay_1"]);
    const out = bearerEvent(envelope, new Map([["cus_1", CUSTOMER_UUID]]));
    expect(out.payment).toEqual({ object: "payment", id: "pay_1", upstreamId: "pay_1", customer: CUSTOMER_UUID, value: "10.00" });
    expect(out.extra).toEqual({ value: 3 });
  });
});
