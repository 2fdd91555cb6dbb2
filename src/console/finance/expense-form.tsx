// The expense form's fields, one list for the record form on the expenses page and the edit page: an edit
// passes the expense (its values prefilled; an imported one offers only its category, an occurrence no
// recurrence of its own).
import type { getExpense } from "../../modules/expenses/service";
import type { listCostCategories } from "../../modules/cost-categories/service";
import type { listSuppliers } from "../../modules/suppliers/service";
import type { FormField } from "../parts/action-form";

export type ExpenseView = Awaited<ReturnType<typeof getExpense>>;
type Category = Awaited<ReturnType<typeof listCostCategories>>["rows"][number];
type Supplier = Awaited<ReturnType<typeof listSuppliers>>["rows"][number];

export const EXPENSE_FIELDS = [
  "description",
  "amount",
  "currency",
  "exchangeRate",
  "incurredOn",
  "dueDate",
  "costCategoryId",
  "supplierId",
  "recurrence",
] as const;

/** What the edit form shows for `e`, by field name (the comparison base of `changedBody`): an import, its category only. */
export const shownExpense = (e: ExpenseView): Record<string, string> =>
  e.source === "AWS"
    ? { costCategoryId: e.costCategoryId }
    : {
        description: e.description,
        amount: e.amount,
        currency: e.currency,
        exchangeRate: e.exchangeRate ?? "",
        incurredOn: e.incurredOn,
        dueDate: e.dueDate ?? "",
        costCategoryId: e.costCategoryId,
        supplierId: e.supplierId ?? "",
        recurrence: e.recurrence,
      };

/** Usable choices, plus the record's own current one even when archived (so an edit does not silently move it). */
const choices = <T extends { id: string; name: string; archived: boolean }>(rows: T[], current: string | undefined) =>
  rows.filter((r) => !r.archived || r.id === current).map((r) => ({ value: r.id, label: r.archived ? `${r.name} (archived)` : r.name }));

export function expenseFields(opts: { categories: Category[]; suppliers: Supplier[]; today: string; expense?: ExpenseView }): FormField[] {
  const e = opts.expense;
  const shown = e ? shownExpense(e) : undefined;
  const category: FormField = {
    name: "costCategoryId",
    label: "Category",
    type: "select",
    id: "e-category",
    value: shown?.costCategoryId,
    options: [...(e ? [] : [{ value: "", label: "The supplier's default" }]), ...choices(opts.categories, shown?.costCategoryId)],
  };
  if (e?.source === "AWS") return [category];
  const fields: FormField[] = [
    { name: "description", label: "Description", required: true, maxlength: 500, value: shown?.description },
    { name: "amount", label: "Amount", required: true, inputmode: "decimal", placeholder: "129.90", value: shown?.amount },
    { name: "currency", label: "Currency", type: "select", options: ["BRL", "USD"], value: shown?.currency ?? "BRL" },
    {
      name: "exchangeRate",
      label: "Exchange rate (BRL per USD)",
      inputmode: "decimal",
      placeholder: "5.4321",
      id: "e-rate",
      value: shown?.exchangeRate,
    },
    { name: "incurredOn", label: "Incurred on", type: "date", required: true, value: shown?.incurredOn ?? opts.today, id: "e-incurred" },
    { name: "dueDate", label: "Due date", type: "date", id: "e-due", value: shown?.dueDate },
    category,
    {
      name: "supplierId",
      label: "Supplier",
      type: "select",
      id: "e-supplier",
      value: shown?.supplierId,
      options: [{ value: "", label: "None" }, ...choices(opts.suppliers, shown?.supplierId)],
    },
  ];
  if (e?.source === "RECURRENCE") return fields;
  fields.push({
    name: "recurrence",
    label: "Repeats",
    type: "select",
    value: shown?.recurrence ?? "NONE",
    options: [
      { value: "NONE", label: "Does not repeat" },
      { value: "MONTHLY", label: "monthly" },
      { value: "YEARLY", label: "yearly" },
    ],
  });
  return fields;
}
