// The shape validator: what it accepts and what it reports.
import { describe, expect, it } from "vitest";
import { upstreamShape } from "../../src/compat/upstream-shapes";
import { checkAnswer } from "../src/shape-check";

const shape = (id: string) => {
  const s = upstreamShape(id);
  if (!s) throw new Error(id);
  return s;
};

const transfer = {
  object: "transfer",
  id: "tra_1",
  type: "PIX",
  dateCreated: "2026-01-02",
  value: 10,
  netValue: 10,
  status: "PENDING",
  transferFee: 0,
  bankAccount: { pixAddressKey: "a@b.c" },
};

describe("checkAnswer", () => {
  it("accepts a fitting object, extra fields and nulls in optional fields", () => {
    expect(checkAnswer(shape("recuperar-uma-unica-transferencia"), { ...transfer, extra: 1, failReason: null })).toEqual([]);
  });

  it("reports missing required fields, wrong types, bad dates and enum values, and nested problems", () => {
    const { value: _v, ...noValue } = transfer;
    expect(
      checkAnswer(shape("recuperar-uma-unica-transferencia"), {
        ...noValue,
        netValue: "10.00",
        dateCreated: "02/01/2026",
        status: "LOST",
        bankAccount: { bank: { code: 1 } },
      }),
    ).toEqual([
      'answer.dateCreated: expected date YYYY-MM-DD, got "02/01/2026"',
      "answer.value: required",
      'answer.netValue: expected money, got "10.00"',
      'answer.status: expected one of TransferStatus, got "LOST"',
      "answer.bankAccount.bank.code: expected string, got 1",
    ]);
  });

  it("checks the list envelope and each item, deletes and date-times", () => {
    expect(
      checkAnswer(shape("listar-transferencias"), {
        object: "list",
        hasMore: false,
        totalCount: 1,
        limit: 10,
        offset: 0,
        data: [transfer],
      }),
    ).toEqual([]);
    expect(checkAnswer(shape("listar-transferencias"), { ...transfer })).toEqual(
      expect.arrayContaining(['answer.object: expected "list"', "answer.data: expected an array"]),
    );
    expect(
      checkAnswer(shape("listar-transferencias"), { object: "list", hasMore: false, totalCount: 1, limit: 10, offset: 0, data: [{}] }),
    ).toContain("answer.data[0].id: required");
    expect(checkAnswer(shape("remover-cliente"), { deleted: true, id: "cus_1" })).toEqual([]);
    expect(checkAnswer(shape("remover-cliente"), { deleted: false, id: "cus_1" })).toEqual(["answer.deleted: expected true"]);
    expect(
      checkAnswer(shape("listar-estornos-de-uma-cobranca"), {
        object: "list",
        hasMore: false,
        totalCount: 1,
        limit: 10,
        offset: 0,
        data: [{ dateCreated: "2026-01-02", status: "DONE", value: 1 }],
      }),
    ).toEqual(['answer.data[0].dateCreated: expected date-time YYYY-MM-DD HH:mm:ss, got "2026-01-02"']);
    expect(checkAnswer(shape("gerar-carne-de-parcelamento"), "%PDF")).toEqual([]);
  });
});
