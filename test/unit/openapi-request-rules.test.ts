// The rules a request must follow are in the OpenAPI document, because they live in the schemas
// the routes validate with (not in the services): bounds, patterns, formats and the cross-field
// rules' descriptions.
import { describe, expect, it } from "vitest";

// The app is typed against workers-types, which the Node type project does not load: import it untyped.
const appModule = "../../src/app";
// biome-ignore lint/suspicious/noExplicitAny: walks the raw OpenAPI document object; not yet typed (issue 11, point 8)
const { buildApp, OPENAPI_CONFIG } = (await import(appModule)) as { buildApp: () => any; OPENAPI_CONFIG: unknown };
const doc = buildApp().getOpenAPI31Document(OPENAPI_CONFIG);

// biome-ignore lint/suspicious/noExplicitAny: walks the raw OpenAPI document object; not yet typed (issue 11, point 8)
function bodySchema(path: string, method: string): any {
  const schema = doc.paths[path][method].requestBody.content["application/json"].schema;
  return schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
}
// biome-ignore lint/suspicious/noExplicitAny: walks the raw OpenAPI document object; not yet typed (issue 11, point 8)
const resolve = (schema: any) => (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema);

describe("request rules in the OpenAPI document", () => {
  it("a payment's cross-field card rules are described on the fields they name", () => {
    const payment = bodySchema("/api/v1/payments", "post");
    expect(payment.properties.billingType.description).toMatch(/CREDIT_CARD when the body carries creditCardToken or creditCard/);
    expect(payment.properties.creditCardHolderInfo.description).toMatch(/required with creditCard/);
    expect(payment.properties.creditCard.description).toMatch(/Needs billingType CREDIT_CARD and creditCardHolderInfo/);
    expect(payment.properties.creditCardToken.description).toMatch(/Needs billingType CREDIT_CARD/);
    expect(payment.required).toEqual(expect.arrayContaining(["customer", "billingType", "value", "dueDate"]));
  });

  it("a subscription documents that a billing type with card fields must be CREDIT_CARD", () => {
    const subscription = bodySchema("/api/v1/subscriptions", "post");
    expect(subscription.properties.billingType.description).toMatch(/CREDIT_CARD when the body carries creditCardToken or creditCard/);
  });

  it("field bounds and patterns are in the document: dates, lengths, the CPF/CNPJ rule", () => {
    const payment = bodySchema("/api/v1/payments", "post");
    expect(payment.properties.dueDate.pattern).toBe("^\\d{4}-\\d{2}-\\d{2}$");
    expect(payment.properties.customer).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(resolve(payment.properties.discount)?.properties.dueDateLimitDays).toMatchObject({ minimum: 0, maximum: 3650 });
    const customer = bodySchema("/api/v1/customers", "post");
    expect(customer.properties.cpfCnpj.description).toMatch(/check digits verified/);
  });

  it("an upstream webhook must carry a non-empty id and event", () => {
    const webhook = bodySchema("/api/v1/webhooks/upstream/{gatewayAccountId}", "post");
    expect(webhook.properties.id.minLength).toBe(1);
    expect(webhook.properties.event.minLength).toBe(1);
    expect(webhook.required).toEqual(expect.arrayContaining(["id", "event"]));
  });
});
