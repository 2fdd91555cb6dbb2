// Cost categories: the workspace's two-level tree, create (top level or under a top-level category),
// archive and restore. Every rule (two levels, unique key and sibling name) is the service's.
import type { Hono } from "hono";
import { CreateCostCategoryBody, createCostCategory, listCostCategories, updateCostCategory } from "../modules/cost-categories/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page } from "./layout";

type Category = Awaited<ReturnType<typeof listCostCategories>>["rows"][number];
interface Values {
  name: string;
  key: string;
  kind: string;
  parentId: string;
  description: string;
}
const EMPTY: Values = { name: "", key: "", kind: "VARIABLE", parentId: "", description: "" };
const PAGE = 100;
const str = (form: Record<string, unknown>, name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");

/** Every category of the workspace (the service pages by 100). */
async function allCategories(c: ConsoleContext): Promise<Category[]> {
  const { deps, principal } = c.get("console");
  const out: Category[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows, totalCount } = await listCostCategories(deps, principal, { limit: PAGE, offset }, {});
    out.push(...rows);
    if (rows.length < PAGE || out.length >= totalCount) return out;
  }
}

const byName = (a: Category, b: Category) => a.name.localeCompare(b.name);

function Row({ cat, child, canManage }: { cat: Category; child: boolean; canManage: boolean }) {
  return (
    <tr data-category={cat.key}>
      <td>
        {child ? <span aria-hidden="true">└ </span> : null}
        {child ? <span>{cat.name}</span> : <strong>{cat.name}</strong>}
        {cat.description ? <div class="muted">{cat.description}</div> : null}
      </td>
      <td>
        <code>expenses.{cat.key}</code>
      </td>
      <td>{cat.kind}</td>
      <td>{cat.archived ? <span class="badge warn">archived</span> : <span class="badge ok">active</span>}</td>
      {canManage ? (
        <td>
          <form method="post" action={`/console/cost-categories/${cat.id}/${cat.archived ? "restore" : "archive"}`}>
            <button type="submit" class="secondary" aria-label={`${cat.archived ? "Restore" : "Archive"} ${cat.name}`}>
              {cat.archived ? "Restore" : "Archive"}
            </button>
          </form>
        </td>
      ) : null}
    </tr>
  );
}

async function render(c: ConsoleContext, state: { error?: string; notice?: string; values?: Values } = {}, status = 200) {
  const { principal } = c.get("console");
  const categories = await allCategories(c);
  const canManage = principal.permissions.has("finance.manage");
  const top = categories.filter((x) => x.parentId === null).sort(byName);
  const values = state.values ?? EMPTY;
  return c.html(
    <Page title="Cost categories" shell={shellFor(c, "/console/cost-categories")}>
      <h1>Cost categories</h1>
      <p class="muted">
        Two levels. Expenses are filed under a category; formulas read a category's expenses (its children included) as{" "}
        <code>expenses.&lt;key&gt;</code>. Archived categories keep their expenses but are not offered for new ones.
      </p>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {top.length === 0 ? (
        <p class="muted">No cost categories yet.</p>
      ) : (
        <table data-table="cost-categories">
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Formula variable</th>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              {canManage ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {top.flatMap((parent) => [
              <Row cat={parent} child={false} canManage={canManage} />,
              ...categories
                .filter((x) => x.parentId === parent.id)
                .sort(byName)
                .map((kid) => <Row cat={kid} child={true} canManage={canManage} />),
            ])}
          </tbody>
        </table>
      )}
      {canManage ? (
        <div class="card">
          <h2>New category</h2>
          <form method="post" action="/console/cost-categories">
            <label for="category-name">Name</label>
            <input id="category-name" name="name" type="text" required maxlength={120} value={values.name} />
            <label for="category-key">Key (optional; derived from the name)</label>
            <input id="category-key" name="key" type="text" pattern="[a-z][a-z0-9_]{0,62}" value={values.key} />
            <label for="category-kind">Kind</label>
            <select id="category-kind" name="kind">
              {["FIXED", "VARIABLE"].map((k) => (
                <option value={k} selected={k === values.kind}>
                  {k}
                </option>
              ))}
            </select>
            <label for="category-parent">Parent</label>
            <select id="category-parent" name="parentId">
              <option value="">None (top level)</option>
              {top
                .filter((x) => !x.archived)
                .map((x) => (
                  <option value={x.id} selected={x.id === values.parentId}>
                    {x.name}
                  </option>
                ))}
            </select>
            <label for="category-description">Description (optional)</label>
            <input id="category-description" name="description" type="text" maxlength={500} value={values.description} />
            <div class="actions">
              <button type="submit">Create category</button>
            </div>
          </form>
        </div>
      ) : null}
    </Page>,
    status as 200,
  );
}

export function registerCostCategoryPages(app: Hono<ConsoleEnv>) {
  app.get("/cost-categories", (c) => render(c));
  app.post("/cost-categories", async (c) => {
    const form = await c.req.parseBody();
    const values: Values = {
      name: str(form, "name"),
      key: str(form, "key").trim(),
      kind: str(form, "kind"),
      parentId: str(form, "parentId"),
      description: str(form, "description"),
    };
    const { deps, principal } = c.get("console");
    try {
      const input = parseForm(CreateCostCategoryBody, {
        name: values.name,
        key: values.key || undefined,
        kind: values.kind,
        parentId: values.parentId || null,
        description: values.description.trim() || null,
      });
      const created = await createCostCategory(deps, principal, input);
      return render(c, { notice: `Created ${created.name} (expenses.${created.key}).` }, 201);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return render(c, { error: plainError(err), values }, statusOf(err));
    }
  });
  for (const [action, archived] of [
    ["archive", true],
    ["restore", false],
  ] as const) {
    app.post(`/cost-categories/:id/${action}`, async (c) => {
      const { deps, principal } = c.get("console");
      try {
        const cat = await updateCostCategory(deps, principal, c.req.param("id"), { archived });
        return render(c, { notice: `${cat.name} ${archived ? "archived" : "restored"}.` });
      } catch (err) {
        if (!isExpected(err)) throw err;
        return render(c, { error: plainError(err) }, statusOf(err));
      }
    });
  }
}
