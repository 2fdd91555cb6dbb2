// Suppliers: search, create (CPF/CNPJ checked, default category), archive, delete (refused while
// expenses point at the supplier). All through the suppliers service.
import type { Hono } from "hono";
import { listCostCategories } from "../modules/cost-categories/service";
import { CreateSupplierBody, deleteSupplier, createSupplier, listSuppliers, updateSupplier } from "../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, redirectingAction, shellFor, statusOf } from "./context";
import { Alert, Page } from "./layout";

interface PageState {
  error?: string | undefined;
  notice?: string | undefined;
  values?: Record<string, string> | undefined;
}

const NOTICES: Record<string, string> = {
  created: "Supplier created.",
  archived: "Supplier archived: it stays on its expenses and leaves the default lists.",
  restored: "Supplier restored.",
  deleted: "Supplier deleted.",
};

async function render(c: ConsoleContext, state: PageState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const q = c.req.query("q")?.trim() || undefined;
  const showArchived = c.req.query("archived") === "true";
  const [suppliers, categories] = await Promise.all([
    listSuppliers(deps, principal, { limit: 100, offset: 0 }, { q, archived: showArchived ? undefined : false }),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, { archived: false }),
  ]);
  const categoryName = new Map(categories.rows.map((k) => [k.id, k.name]));
  const canManage = principal.permissions.has("finance.manage");
  const v = state.values ?? {};
  return c.html(
    <Page title="Suppliers" shell={shellFor(c, "/console/suppliers")}>
      <h1>Suppliers</h1>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      <form method="get" action="/console/suppliers" class="card" aria-label="Search suppliers">
        <label for="s-q">Search by name or CPF/CNPJ</label>
        <input id="s-q" name="q" type="text" value={q ?? ""} />
        <label>
          <input type="checkbox" name="archived" value="true" checked={showArchived} /> Include archived
        </label>
        <div class="actions">
          <button type="submit" class="secondary">
            Search
          </button>
        </div>
      </form>
      {suppliers.rows.length === 0 ? (
        <p class="muted">No suppliers{q ? " match this search" : " yet"}.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">CPF/CNPJ</th>
              <th scope="col">Email</th>
              <th scope="col">Default category</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="muted">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {suppliers.rows.map((s) => (
              <tr>
                <td>{s.name}</td>
                <td class="mono">{s.cpfCnpj ?? "—"}</td>
                <td>{s.email ?? "—"}</td>
                <td>{s.defaultCostCategoryId ? (categoryName.get(s.defaultCostCategoryId) ?? "(archived category)") : "—"}</td>
                <td>{s.archived ? <span class="badge">archived</span> : <span class="badge ok">active</span>}</td>
                <td>
                  {canManage ? (
                    <>
                      <form method="post" action={`/console/suppliers/${s.id}/${s.archived ? "restore" : "archive"}`}>
                        <button type="submit" class="secondary" aria-label={`${s.archived ? "Restore" : "Archive"} supplier ${s.name}`}>
                          {s.archived ? "Restore" : "Archive"}
                        </button>
                      </form>{" "}
                      <form method="post" action={`/console/suppliers/${s.id}/delete`}>
                        <button type="submit" class="danger" aria-label={`Delete supplier ${s.name}`}>
                          Delete
                        </button>
                      </form>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canManage ? (
        <div class="card">
          <h2>Add a supplier</h2>
          <form method="post" action="/console/suppliers">
            <label for="n-name">Name</label>
            <input id="n-name" name="name" type="text" required maxlength={200} value={v.name ?? ""} />
            <label for="n-doc">CPF or CNPJ (optional)</label>
            <input id="n-doc" name="cpfCnpj" type="text" maxlength={20} value={v.cpfCnpj ?? ""} />
            <label for="n-email">Email (optional)</label>
            <input id="n-email" name="email" type="email" maxlength={254} value={v.email ?? ""} />
            <label for="n-category">Default cost category</label>
            <select id="n-category" name="defaultCostCategoryId">
              <option value="">None</option>
              {categories.rows.map((k) => (
                <option value={k.id} selected={v.defaultCostCategoryId === k.id}>
                  {k.name}
                </option>
              ))}
            </select>
            <div class="actions">
              <button type="submit">Add supplier</button>
            </div>
          </form>
        </div>
      ) : (
        <p class="muted">Your role can see suppliers but not change them.</p>
      )}
    </Page>,
    status,
  );
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function registerSupplierPages(app: Hono<ConsoleEnv>) {
  app.get("/suppliers", (c) => render(c, { notice: NOTICES[c.req.query("done") ?? ""] }));

  app.post("/suppliers", async (c) => {
    const form = await c.req.parseBody();
    const values = Object.fromEntries(["name", "cpfCnpj", "email", "defaultCostCategoryId"].map((k) => [k, text(form[k])]));
    const { deps, principal } = c.get("console");
    try {
      const input = parseForm(CreateSupplierBody, {
        name: values.name,
        cpfCnpj: values.cpfCnpj || null,
        email: values.email || null,
        defaultCostCategoryId: values.defaultCostCategoryId || null,
      });
      await createSupplier(deps, principal, input);
      return c.redirect("/console/suppliers?done=created", 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return render(c, { error: plainError(err), values }, statusOf(err) as 400);
    }
  });

  const action = (name: string, run: (c: ConsoleContext, id: string) => Promise<unknown>, done: string) =>
    redirectingAction(app, `/suppliers/:id/${name}`, `/console/suppliers?done=${done}`, run, render);
  const session = (c: ConsoleContext) => c.get("console");
  action("archive", (c, id) => updateSupplier(session(c).deps, session(c).principal, id, { archived: true }), "archived");
  action("restore", (c, id) => updateSupplier(session(c).deps, session(c).principal, id, { archived: false }), "restored");
  action("delete", (c, id) => deleteSupplier(session(c).deps, session(c).principal, id), "deleted");
}
