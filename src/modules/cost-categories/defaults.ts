// The cost categories every workspace starts with (kind as a finance team would file it). A leaf module with
// no imports, so that `npm run seed` (scripts/seed.mjs) imports this table instead of keeping a copy.

export const DEFAULT_COST_CATEGORIES = [
  { key: "infrastructure", name: "Infrastructure", kind: "VARIABLE" },
  { key: "software", name: "Software", kind: "FIXED" },
  { key: "payroll", name: "Payroll", kind: "FIXED" },
  { key: "taxes", name: "Taxes", kind: "VARIABLE" },
  { key: "marketing", name: "Marketing", kind: "VARIABLE" },
  { key: "payment_fees", name: "Payment fees", kind: "VARIABLE" },
  { key: "other", name: "Other", kind: "VARIABLE" },
] as const;
