// Suppliers: search, create (CPF/CNPJ checked, default category), archive and restore; each one's edit
// page (finance/supplier-edit.tsx) edits it and deletes it (refused while expenses point at the supplier).
// All through the suppliers service.
import type { Hono } from "hono";
import { listCostCategories } from "../modules/cost-categories/service";
import { CreateSupplierBody, createSupplier, listSuppliers, updateSupplier } from "../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { registerSupplierEditPages, SUPPLIER_FIELDS, supplierFields } from "./finance/supplier-edit";
import { Page } from "./layout";
import { ActionForm, bodyOf, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";
import { FilterBar } from "./parts/filter-bar";
import { manage } from "./finance/record-actions";

const NOTICES: Record<string, string> = {
  created: "Supplier created.",
  archived: "Supplier archived: it stays on its expenses and leaves the default lists.",
  restored: "Supplier restored.",
  deleted: "Supplier deleted.",
  updated: "Supplier updated.",
};

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const q = c.req.query("q")?.trim() || undefined;
  const showArchived = c.req.query("archived") === "true";
  const [suppliers, categories] = await Promise.all([
    listSuppliers(deps, principal, { limit: 100, offset: 0 }, { q, archived: showArchived ? undefined : false }),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, { archived: false }),
  ]);
  const categoryName = new Map(categories.rows.map((k) => [k.id, k.name]));
  const canManage = principal.permissions.has("finance.manage");
  return c.html(
    <Page title="Suppliers" shell={shellFor(c, "/console/suppliers")}>
      <h1>Suppliers</h1>
      <Outcome state={state} />
      <FilterBar
        c={c}
        path="/console/suppliers"
        label="Search suppliers"
        submit="Search"
        fields={[
          { name: "q", label: "Search by name or CPF/CNPJ" },
          { name: "archived", label: "Include archived", type: "checkbox" },
        ]}
      />
      <DataTable
        rows={suppliers.rows}
        empty={`No suppliers${q ? " match this search" : " yet"}.`}
        columns={[
          { label: "Name", cell: (s) => s.name },
          { label: "CPF/CNPJ", cell: (s) => s.cpfCnpj ?? "—", mono: true },
          { label: "Email", cell: (s) => s.email ?? "—" },
          {
            label: "Default category",
            cell: (s) => (s.defaultCostCategoryId ? (categoryName.get(s.defaultCostCategoryId) ?? "(archived category)") : "—"),
          },
          { label: "Status", cell: (s) => (s.archived ? <span class="badge">archived</span> : <span class="badge ok">active</span>) },
          {
            label: "Actions",
            hiddenLabel: true,
            cell: (s) =>
              canManage ? (
                <>
                  <a href={`/console/suppliers/${s.id}/edit`} aria-label={`Edit supplier ${s.name}`}>
                    Edit
                  </a>{" "}
                  <ActionForm
                    id={`toggle-${s.id}`}
                    bare
                    action={`/console/suppliers/${s.id}/${s.archived ? "restore" : "archive"}`}
                    submit={s.archived ? "Restore" : "Archive"}
                    submitClass="secondary"
                    submitLabel={`${s.archived ? "Restore" : "Archive"} supplier ${s.name}`}
                  />
                </>
              ) : null,
          },
        ]}
      />
      {canManage ? (
        <ActionForm
          id="n"
          title="Add a supplier"
          action="/console/suppliers"
          submit="Add supplier"
          state={state}
          fields={supplierFields(categories.rows)}
        />
      ) : (
        <p class="muted">Your role can see suppliers but not change them.</p>
      )}
    </Page>,
    status,
  );
}

export function registerSupplierPages(app: Hono<ConsoleEnv>) {
  app.get("/suppliers", (c) => render(c, { notice: NOTICES[c.req.query("done") ?? ""] }));

  formAction(app, "/suppliers", {
    fields: SUPPLIER_FIELDS,
    run: manage((deps, principal, _id, v) => createSupplier(deps, principal, parseForm(CreateSupplierBody, bodyOf(v)))),
    done: "/console/suppliers?done=created",
    render,
  });

  for (const [name, archived, done] of [
    ["archive", true, "archived"],
    ["restore", false, "restored"],
  ] as const)
    formAction(app, `/suppliers/:id/${name}`, {
      run: manage((deps, principal, id) => updateSupplier(deps, principal, id, { archived })),
      done: `/console/suppliers?done=${done}`,
      render,
    });

  registerSupplierEditPages(app);
}
