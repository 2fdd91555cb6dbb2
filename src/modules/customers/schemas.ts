import { z } from "@hono/zod-openapi";
import { listQuery } from "../../http/pagination";
import { RecordOrigin, SyncStatus } from "../../billing/schemas";
import { validateCpfCnpj } from "./cpf-cnpj";

const CpfCnpj = z
  .string()
  .superRefine((value, ctx) => {
    const result = validateCpfCnpj(value);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.reason });
  })
  .openapi({ example: "529.982.247-25", description: "CPF (11 digits) or CNPJ (14, alphanumeric allowed), check digits verified." });

const optionalText = (max: number) => z.string().max(max).nullable().optional();

const CustomerFields = {
  email: z.email().max(254).nullable().optional(),
  phone: optionalText(30),
  mobilePhone: optionalText(30),
  address: optionalText(200),
  addressNumber: optionalText(20),
  complement: optionalText(200),
  province: optionalText(100),
  postalCode: optionalText(20),
  externalReference: optionalText(200),
  notificationDisabled: z.boolean().optional(),
  observations: optionalText(1000),
};

export const CreateCustomerBody = z
  .object({ name: z.string().trim().min(1).max(200), cpfCnpj: CpfCnpj, ...CustomerFields })
  .openapi("CreateCustomer");

export const UpdateCustomerBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), cpfCnpj: CpfCnpj.optional(), ...CustomerFields })
  .openapi("UpdateCustomer");

export const CustomerListQuery = listQuery({
  name: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "name", in: "query" } }),
  email: z
    .string()
    .max(254)
    .optional()
    .openapi({ param: { name: "email", in: "query" } }),
  cpfCnpj: z
    .string()
    .max(20)
    .optional()
    .openapi({ param: { name: "cpfCnpj", in: "query" } }),
  externalReference: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "externalReference", in: "query" } }),
  includeDeleted: z
    .enum(["true", "false"])
    .optional()
    .openapi({ param: { name: "includeDeleted", in: "query" } }),
});

export const Customer = z
  .object({
    id: z.uuid(),
    object: z.literal("customer"),
    name: z.string(),
    cpfCnpj: z.string(),
    personType: z.enum(["FISICA", "JURIDICA"]),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    mobilePhone: z.string().nullable(),
    address: z.string().nullable(),
    addressNumber: z.string().nullable(),
    complement: z.string().nullable(),
    province: z.string().nullable(),
    postalCode: z.string().nullable(),
    externalReference: z.string().nullable(),
    notificationDisabled: z.boolean(),
    observations: z.string().nullable(),
    deleted: z.boolean(),
    upstreamId: z.string().nullable(),
    syncStatus: SyncStatus,
    origin: RecordOrigin,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Customer");
