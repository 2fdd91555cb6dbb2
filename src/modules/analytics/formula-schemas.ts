// The formula routes' request and response schemas (the service in ./formulas-service.ts).
import { z } from "@hono/zod-openapi";
import { MAX_EXPRESSION_LENGTH } from "./formula-engine";
import { METRIC_KEYS } from "./metric-catalogue";

const UnitEnum = z.enum(["BRL", "COUNT", "PERCENT"]);
const Key = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,62}$/, "lowercase letters, digits and _, starting with a letter (at most 63)")
  .refine((k) => !METRIC_KEYS.has(k) && k !== "expenses", "is a metric key; formulas need their own key");
const Expression = z.string().trim().min(1).max(MAX_EXPRESSION_LENGTH);

export const CreateFormulaBody = z
  .object({
    key: Key.openapi({ description: "Slug, unique in the workspace; other formulas use it as a variable. Not a metric key." }),
    name: z.string().trim().min(1).max(120),
    expression: Expression.openapi({ example: "(revenue - payment_fees - expenses) / revenue * 100" }),
    unit: UnitEnum,
    description: z.string().max(500).nullable().optional(),
  })
  .openapi("CreateFormula");
export const UpdateFormulaBody = z
  .object({
    key: Key.optional(),
    name: z.string().trim().min(1).max(120).optional(),
    expression: Expression.optional(),
    unit: UnitEnum.optional(),
    description: z.string().max(500).nullable().optional(),
  })
  .openapi("UpdateFormula");
export const ValidateFormulaBody = z.object({ expression: z.string().max(MAX_EXPRESSION_LENGTH) }).openapi("ValidateFormula");

const FormulaReference = z
  .object({
    variable: z.string().openapi({ example: "expenses.infrastructure" }),
    kind: z.enum(["metric", "expenses", "formula"]),
    id: z.string().nullable().openapi({ description: "The metric's key, the cost category's id or the formula's id." }),
    name: z.string().nullable().openapi({ description: "Its display name (the category's or formula's current name)." }),
  })
  .openapi("FormulaReference");

export const Formula = z
  .object({
    id: z.uuid(),
    object: z.literal("formula"),
    key: z.string(),
    name: z.string(),
    expression: z.string(),
    unit: UnitEnum,
    description: z.string().nullable(),
    variables: z.array(z.string()).openapi({ description: "The variables the expression uses, in order of first use." }),
    references: z.array(FormulaReference).openapi({
      description:
        "What each variable refers to, in the order of `variables`. A category or formula in use cannot be re-keyed or deleted (409 IN_USE).",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Formula");
export const FormulaValidation = z
  .object({
    valid: z.literal(true),
    variables: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["metric", "expenses", "formula"]),
        position: z.number().int().openapi({ description: "0-based position of its first use." }),
      }),
    ),
    references: z.array(FormulaReference).openapi({
      description: "What each variable refers to, in the order of `variables`: the same as the formula record would answer once saved.",
    }),
  })
  .openapi("FormulaValidation");
