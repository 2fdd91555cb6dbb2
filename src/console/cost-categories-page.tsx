// Cost categories: the workspace's two-level tree, create (top level or under a top-level category),
// archive and restore; each one's edit page (finance/cost-category-edit.tsx) edits and deletes it. Every
// rule (two levels, unique key and sibling name, a key formulas use) is the cost-categories service's.
import type { Hono } from "hono";
import { CreateCostCategoryBody, createCostCategory, updateCostCategory } from "../modules/cost-categories/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { allCategories, type Category, categoryFields, CATEGORY_FIELDS, registerCostCategoryEditPages } from "./finance/cost-category-edit";
import { Page } from "./layout";
import { ActionForm, bodyOf, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";
import { manage } from "./finance/record-actions";

const byName = (a: Category, b: Category) => a.name.localeCompare(b.name);

/** The outcome a redirect named (`?done=…&id=…`), in words about that category. */
function noticeOf(c: ConsoleContext, categories: Category[]) {
  const cat = categories.find((x) => x.id === c.req.query("id"));
  const done = c.req.query("done");
  if (done === "deleted") return "Category deleted.";
  if (!cat) return undefined;
  if (done === "created") return `Created ${cat.name} (expenses.${cat.key}).`;
  if (done === "updated") return `${cat.name} saved (expenses.${cat.key}).`;
  if (done === "archived" || done === "restored") return `${cat.name} ${done}.`;
  return undefined;
}

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { principal } = c.get("console");
  const categories = await allCategories(c);
  const canManage = principal.permissions.has("finance.manage");
  const top = categories.filter((x) => x.parentId === null).sort(byName);
  const tree = top.flatMap((parent) => [parent, ...categories.filter((x) => x.parentId === parent.id).sort(byName)]);
  return c.html(
    <Page title="Cost categories" shell={shellFor(c, "/console/cost-categories")}>
      <h1>Cost categories</h1>
      <p class="muted">
        Two levels. Expenses are filed under a category; formulas read a category's expenses (its children included) as{" "}
        <code>expenses.&lt;key&gt;</code>. Archived categories keep their expenses but are not offered for new ones.
      </p>
      <Outcome state={{ ...state, notice: state.notice ?? (state.error ? undefined : noticeOf(c, categories)) }} />
      <DataTable
        rows={tree}
        empty="No cost categories yet."
        attrs={{ "data-table": "cost-categories" }}
        rowAttrs={(cat) => ({ "data-category": cat.key })}
        columns={[
          {
            label: "Category",
            cell: (cat) => (
              <>
                {cat.parentId ? <span aria-hidden="true">└ </span> : null}
                {cat.parentId ? <span>{cat.name}</span> : <strong>{cat.name}</strong>}
                {cat.description ? <div class="muted">{cat.description}</div> : null}
              </>
            ),
          },
          { label: "Formula variable", cell: (cat) => <code>expenses.{cat.key}</code> },
          { label: "Kind", cell: (cat) => cat.kind },
          {
            label: "Status",
            cell: (cat) => (cat.archived ? <span class="badge warn">archived</span> : <span class="badge ok">active</span>),
          },
          ...(canManage
            ? [
                {
                  label: "Actions",
                  hiddenLabel: true,
                  cell: (cat: Category) => (
                    <>
                      <a href={`/console/cost-categories/${cat.id}/edit`} aria-label={`Edit ${cat.name}`}>
                        Edit
                      </a>{" "}
                      <ActionForm
                        id={`toggle-${cat.id}`}
                        bare
                        action={`/console/cost-categories/${cat.id}/${cat.archived ? "restore" : "archive"}`}
                        submit={cat.archived ? "Restore" : "Archive"}
                        submitClass="secondary"
                        submitLabel={`${cat.archived ? "Restore" : "Archive"} ${cat.name}`}
                      />
                    </>
                  ),
                },
              ]
            : []),
        ]}
      />
      {canManage ? (
        <ActionForm
          id="category"
          title="New category"
          action="/console/cost-categories"
          submit="Create category"
          state={state}
          fields={categoryFields(categories)}
        />
      ) : (
        <p class="muted">Your role can see cost categories but not change them.</p>
      )}
    </Page>,
    status,
  );
}

export function registerCostCategoryPages(app: Hono<ConsoleEnv>) {
  app.get("/cost-categories", (c) => render(c, {}));

  formAction(app, "/cost-categories", {
    fields: CATEGORY_FIELDS,
    run: manage((deps, principal, _id, values) => createCostCategory(deps, principal, parseForm(CreateCostCategoryBody, bodyOf(values)))),
    done: (_c, cat) => `/console/cost-categories?done=created&id=${(cat as Category).id}`,
    render,
  });

  for (const [name, archived, done] of [
    ["archive", true, "archived"],
    ["restore", false, "restored"],
  ] as const)
    formAction(app, `/cost-categories/:id/${name}`, {
      run: manage((deps, principal, id) => updateCostCategory(deps, principal, id, { archived })),
      done: (c) => `/console/cost-categories?done=${done}&id=${c.req.param("id")}`,
      render,
    });

  registerCostCategoryEditPages(app);
}
