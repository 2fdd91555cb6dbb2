// One supplier: edit its details and default category, or delete it (refused, 409 IN_USE, while expenses
// point at it: archive it instead). The same suppliers service as PATCH/DELETE /api/v1/suppliers/{id}.
import type { Hono } from "hono";
import { listCostCategories } from "../../modules/cost-categories/service";
import { deleteSupplier, getSupplier, UpdateSupplierBody, updateSupplier } from "../../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, parseForm } from "../context";
import type { FormField, FormState } from "../parts/action-form";
import { DeleteForm, deleteAction, editAction, RecordPage } from "./record-actions";

type SupplierView = Awaited<ReturnType<typeof getSupplier>>;
type Category = Awaited<ReturnType<typeof listCostCategories>>["rows"][number];

export const SUPPLIER_FIELDS = ["name", "cpfCnpj", "email", "phone", "website", "defaultCostCategoryId", "notes"] as const;
const OPTIONAL = SUPPLIER_FIELDS.filter((f) => f !== "name");

const shownSupplier = (s: SupplierView): Record<string, string> => Object.fromEntries(SUPPLIER_FIELDS.map((f) => [f, s[f] ?? ""]));

/** The supplier form's fields (an edit passes the supplier: its values prefilled). */
export function supplierFields(categories: Category[], supplier?: SupplierView): FormField[] {
  const shown = supplier ? shownSupplier(supplier) : {};
  const current = shown.defaultCostCategoryId;
  return [
    { name: "name", label: "Name", required: true, maxlength: 200, value: shown.name },
    { name: "cpfCnpj", label: "CPF or CNPJ (optional)", maxlength: 20, value: shown.cpfCnpj },
    { name: "email", label: "Email (optional)", type: "email", maxlength: 254, value: shown.email },
    { name: "phone", label: "Phone (optional)", maxlength: 30, value: shown.phone },
    { name: "website", label: "Website (optional)", type: "url", maxlength: 500, placeholder: "https://", value: shown.website },
    {
      name: "defaultCostCategoryId",
      label: "Default cost category",
      type: "select",
      value: current,
      options: [
        { value: "", label: "None" },
        ...categories
          .filter((k) => !k.archived || k.id === current)
          .map((k) => ({ value: k.id, label: k.archived ? `${k.name} (archived)` : k.name })),
      ],
    },
    { name: "notes", label: "Notes (optional)", type: "textarea", maxlength: 2000, value: shown.notes },
  ];
}

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const [supplier, categories] = await Promise.all([
    getSupplier(deps, principal, c.req.param("id") ?? ""),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const base = `/console/suppliers/${supplier.id}`;
  return c.html(
    <RecordPage
      c={c}
      list="/console/suppliers"
      listLabel="Suppliers"
      title={supplier.name}
      about={supplier.archived ? "Archived: kept on its expenses, not offered for new ones." : undefined}
      base={base}
      fields={supplierFields(categories.rows, supplier)}
      state={state}
    >
      <DeleteForm
        base={base}
        noun="supplier"
        explain="Only a supplier no expense points at can be deleted; otherwise archive it."
        state={state}
      />
    </RecordPage>,
    status,
  );
}

export function registerSupplierEditPages(app: Hono<ConsoleEnv>) {
  app.get("/suppliers/:id/edit", (c) => render(c, {}));

  editAction(app, "/suppliers", {
    fields: SUPPLIER_FIELDS,
    nullable: OPTIONAL,
    read: getSupplier,
    shown: shownSupplier,
    update: (deps, principal, id, body) => updateSupplier(deps, principal, id, parseForm(UpdateSupplierBody, body)),
    done: "/console/suppliers?done=updated",
    render,
  });

  deleteAction(app, "/suppliers", deleteSupplier, "/console/suppliers?done=deleted", render);
}
