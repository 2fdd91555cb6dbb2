// The rules a request must follow are in the OpenAPI document, because they live in the schemas
// the routes validate with (not in the services): bounds, patterns, formats and the cross-field
// rules' descriptions.
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { describe, expect, it } from "vitest";
import { type Method, propertyOf, requestSchema } from "./openapi-walk";

// The app is typed against workers-types, which the Node type project does not load: import it untyped.
const appModule = "../../src/app";
const { buildApp, OPENAPI_CONFIG } = (await import(appModule)) as {
  buildApp: () => Promise<{ getOpenAPI31Document(config: unknown): OpenAPIObject }>;
  OPENAPI_CONFIG: unknown;
};
const doc = (await buildApp()).getOpenAPI31Document(OPENAPI_CONFIG);

/** The request body of an operation, with a resolved `field(name)`. */
function bodySchema(path: string, method: Method) {
  const schema = requestSchema(doc, path, method);
  return { required: schema.required, field: (name: string) => propertyOf(doc, schema, name) };
}

describe("request rules in the OpenAPI document", () => {
  it("a payment's cross-field card rules are described on the fields they name", () => {
    const payment = bodySchema("/api/v1/payments", "post");
    expect(payment.field("billingType").description).toMatch(/CREDIT_CARD when the body carries creditCardToken or creditCard/);
    expect(payment.field("creditCardHolderInfo").description).toMatch(/required with creditCard/);
    expect(payment.field("creditCard").description).toMatch(/Needs billingType CREDIT_CARD and creditCardHolderInfo/);
    expect(payment.field("creditCardToken").description).toMatch(/Needs billingType CREDIT_CARD/);
    expect(payment.required).toEqual(expect.arrayContaining(["customer", "billingType", "dueDate"]));
    // value or an installment plan: the rule is on the field it names.
    expect(payment.field("value").description).toMatch(/required unless installmentCount/);
  });

  it("a subscription documents that a billing type with card fields must be CREDIT_CARD", () => {
    const subscription = bodySchema("/api/v1/subscriptions", "post");
    expect(subscription.field("billingType").description).toMatch(/CREDIT_CARD when the body carries creditCardToken or creditCard/);
  });

  it("field bounds and patterns are in the document: dates, lengths, the CPF/CNPJ rule", () => {
    const payment = bodySchema("/api/v1/payments", "post");
    expect(payment.field("dueDate").pattern).toBe("^\\d{4}-\\d{2}-\\d{2}$");
    expect(payment.field("customer")).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(propertyOf(doc, payment.field("discount"), "dueDateLimitDays")).toMatchObject({ minimum: 0, maximum: 3650 });
    const customer = bodySchema("/api/v1/customers", "post");
    expect(customer.field("cpfCnpj").description).toMatch(/check digits verified/);
  });

  it("an upstream webhook must carry a non-empty id and event", () => {
    const webhook = bodySchema("/api/v1/webhooks/upstream/{gatewayAccountId}", "post");
    expect(webhook.field("id").minLength).toBe(1);
    expect(webhook.field("event").minLength).toBe(1);
    expect(webhook.required).toEqual(expect.arrayContaining(["id", "event"]));
  });
});
