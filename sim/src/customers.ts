// Customers: create, list, get, update (PUT), soft delete, restore.
import { bodyObject, type Handler } from "./context";
import { badRequest, isoDate, listBody, newId, notFound, readPage, type Json } from "./http";
import { newestFirst, type Account, type Customer } from "./state";

const OPTIONAL_FIELDS = [
  "email",
  "phone",
  "mobilePhone",
  "address",
  "addressNumber",
  "complement",
  "province",
  "postalCode",
  "externalReference",
  "additionalEmails",
  "municipalInscription",
  "stateInscription",
  "observations",
  "groupName",
  "company",
  "foreignCustomer",
  "notificationDisabled",
] as const;

function cleanCpfCnpj(value: unknown): string {
  const digits = typeof value === "string" ? value.replace(/\D/g, "") : "";
  if (digits.length !== 11 && digits.length !== 14) {
    throw badRequest("invalid_cpfCnpj", "O CPF/CNPJ informado é inválido.");
  }
  return digits;
}

export function findCustomer(account: Account, id: string | undefined): Customer {
  const customer = id ? account.customers.get(id) : undefined;
  if (!customer) throw notFound("Cliente não encontrado.");
  return customer;
}

/** Sets the fields a create or update request names (name, cpfCnpj with its person type, contact, address…). */
export function applyFields(customer: Customer, body: Json): void {
  for (const field of OPTIONAL_FIELDS) if (body[field] !== undefined) customer[field] = body[field];
  if (typeof body.name === "string" && body.name.trim() !== "") customer.name = body.name.trim();
  if (body.cpfCnpj !== undefined) {
    customer.cpfCnpj = cleanCpfCnpj(body.cpfCnpj);
    customer.personType = customer.cpfCnpj.length === 11 ? "FISICA" : "JURIDICA";
  }
}

export const createCustomer: Handler = (ctx) => {
  const body = bodyObject(ctx);
  if (typeof body.name !== "string" || body.name.trim() === "") {
    throw badRequest("invalid_name", "O campo name deve ser informado.");
  }
  if (body.cpfCnpj === undefined || body.cpfCnpj === null || body.cpfCnpj === "") {
    throw badRequest("invalid_cpfCnpj", "O campo cpfCnpj deve ser informado.");
  }
  const customer = customerRecord();
  applyFields(customer, body);
  ctx.account.customers.set(customer.id, customer);
  return customer;
};

/** A customer record with every field the upstream answers, blank until `applyCustomerFields`. */
export function customerRecord(id = newId("cus"), dateCreated = isoDate()): Customer {
  return {
    object: "customer",
    id,
    dateCreated,
    name: "",
    email: null,
    phone: null,
    mobilePhone: null,
    address: null,
    addressNumber: null,
    complement: null,
    province: null,
    city: null,
    cityName: null,
    state: null,
    country: "Brasil",
    postalCode: null,
    cpfCnpj: "",
    personType: "FISICA",
    deleted: false,
    additionalEmails: null,
    externalReference: null,
    notificationDisabled: false,
    observations: null,
    foreignCustomer: false,
  };
}

export const listCustomers: Handler = ({ account, query }) => {
  const page = readPage(query);
  const name = query.get("name")?.toLowerCase();
  const email = query.get("email")?.toLowerCase();
  const cpfCnpj = query.get("cpfCnpj")?.replace(/\D/g, "");
  const externalReference = query.get("externalReference");
  const items = newestFirst(account.customers.values()).filter(
    (c) =>
      !c.deleted &&
      (!name || c.name.toLowerCase().includes(name)) &&
      (!email || String(c.email ?? "").toLowerCase() === email) &&
      (!cpfCnpj || c.cpfCnpj === cpfCnpj) &&
      (!externalReference || c.externalReference === externalReference),
  );
  return listBody(items, page);
};

export const getCustomer: Handler = ({ account, params }) => findCustomer(account, params.id);

export const updateCustomer: Handler = (ctx) => {
  const customer = findCustomer(ctx.account, ctx.params.id);
  if (customer.deleted) throw badRequest("invalid_action", "Não é possível atualizar um cliente removido.");
  applyFields(customer, bodyObject(ctx));
  return customer;
};

export const deleteCustomer: Handler = ({ account, params }) => {
  const customer = findCustomer(account, params.id);
  customer.deleted = true;
  return { deleted: true, id: customer.id };
};

export const restoreCustomer: Handler = ({ account, params }) => {
  const customer = findCustomer(account, params.id);
  if (!customer.deleted) throw badRequest("invalid_action", "O cliente não está removido.");
  customer.deleted = false;
  return customer;
};
