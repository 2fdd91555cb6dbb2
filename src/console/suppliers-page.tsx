// Suppliers: search, create (CPF/CNPJ checked, default category), archive, delete (refused while
// expenses point at the supplier). All through the suppliers service.
import type { Hono } from "hono";
import { listCostCategories } from "../modules/cost-categories/service";
import { CreateSupplierBody, deleteSupplier, createSupplier, listSuppliers, updateSupplier } from "../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, redirectingAction, shellFor } from "./context";
import { Page } from "./layout";
import { ActionForm, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";
import { FilterBar } from "./parts/filter-bar";

const NOTICES: Record<string, string> = {
  created: "Supplier created.",
  archived: "Supplier archived: it stays on its expenses and leaves the default lists.",
  restored: "Supplier restored.",
  deleted: "Supplier deleted.",
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
                  <ActionForm
                    id={`toggle-${s.id}`}
                    bare
                    action={`/console/suppliers/${s.id}/${s.archived ? "restore" : "archive"}`}
                    submit={s.archived ? "Restore" : "Archive"}
                    submitClass="secondary"
                    submitLabel={`${s.archived ? "Restore" : "Archive"} supplier ${s.name}`}
                  />{" "}
                  <ActionForm
                    id={`delete-${s.id}`}
                    bare
                    action={`/console/suppliers/${s.id}/delete`}
                    submit="Delete"
                    submitClass="danger"
                    submitLabel={`Delete supplier ${s.name}`}
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
          fields={[
            { name: "name", label: "Name", required: true, maxlength: 200 },
            { name: "cpfCnpj", label: "CPF or CNPJ (optional)", maxlength: 20 },
            { name: "email", label: "Email (optional)", type: "email", maxlength: 254 },
            {
              name: "defaultCostCategoryId",
              label: "Default cost category",
              type: "select",
              options: [{ value: "", label: "None" }, ...categories.rows.map((k) => ({ value: k.id, label: k.name }))],
            },
          ]}
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
    fields: ["name", "cpfCnpj", "email", "defaultCostCategoryId"],
    run: (c, v) =>
      createSupplier(
        c.get("console").deps,
        c.get("console").principal,
        parseForm(CreateSupplierBody, {
          name: v.name,
          cpfCnpj: v.cpfCnpj || null,
          email: v.email || null,
          defaultCostCategoryId: v.defaultCostCategoryId || null,
        }),
      ),
    done: "/console/suppliers?done=created",
    render,
  });

  const action = (name: string, run: (c: ConsoleContext, id: string) => Promise<unknown>, done: string) =>
    redirectingAction(app, `/suppliers/:id/${name}`, `/console/suppliers?done=${done}`, run, render);
  const session = (c: ConsoleContext) => c.get("console");
  action("archive", (c, id) => updateSupplier(session(c).deps, session(c).principal, id, { archived: true }), "archived");
  action("restore", (c, id) => updateSupplier(session(c).deps, session(c).principal, id, { archived: false }), "restored");
  action("delete", (c, id) => deleteSupplier(session(c).deps, session(c).principal, id), "deleted");
}
