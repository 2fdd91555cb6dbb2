// One cost category: edit its name, key, kind, parent and description, or delete it. A key or a delete
// that formulas depend on is refused by the service (409 IN_USE, naming the formulas), and so is a delete
// while expenses, children, suppliers or AWS connections point at it; the page says which, in its words.
import type { Hono } from "hono";
import {
  deleteCostCategory,
  getCostCategory,
  listCostCategories,
  UpdateCostCategoryBody,
  updateCostCategory,
} from "../../modules/cost-categories/service";
import type { Principal } from "../../access/principal";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import { type ConsoleContext, type ConsoleEnv, parseForm } from "../context";
import type { FormField, FormState } from "../parts/action-form";
import { DeleteForm, deleteAction, editAction, RecordPage } from "./record-actions";

export type Category = Awaited<ReturnType<typeof listCostCategories>>["rows"][number];
export const CATEGORY_FIELDS = ["name", "key", "kind", "parentId", "description"] as const;
const PAGE = 100;

/** Every category of the workspace (the service pages by 100). */
export async function allCategories(c: ConsoleContext): Promise<Category[]> {
  const { deps, principal } = c.get("console");
  const out: Category[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows, totalCount } = await listCostCategories(deps, principal, { limit: PAGE, offset }, {});
    out.push(...rows);
    if (rows.length < PAGE || out.length >= totalCount) return out;
  }
}

const shownCategory = (k: Category): Record<string, string> => ({
  name: k.name,
  key: k.key,
  kind: k.kind,
  parentId: k.parentId ?? "",
  description: k.description ?? "",
});

/** The category form's fields (an edit passes the category: its values prefilled, itself not a parent choice). */
export function categoryFields(categories: Category[], category?: Category): FormField[] {
  const shown = category ? shownCategory(category) : { kind: "VARIABLE" };
  const parents = categories.filter((x) => x.parentId === null && x.id !== category?.id && (!x.archived || x.id === shown.parentId));
  return [
    { name: "name", label: "Name", required: true, maxlength: 120, value: shown.name },
    {
      name: "key",
      label: category ? "Key" : "Key (optional; derived from the name)",
      maxlength: 63,
      value: shown.key,
      hint: category ? "Formulas read this category as expenses.<key>; a key formulas use cannot change." : undefined,
    },
    { name: "kind", label: "Kind", type: "select", options: ["FIXED", "VARIABLE"], value: shown.kind },
    {
      name: "parentId",
      label: "Parent",
      type: "select",
      value: shown.parentId,
      options: [{ value: "", label: "None (top level)" }, ...parents.map((x) => ({ value: x.id, label: x.name }))],
    },
    { name: "description", label: "Description (optional)", maxlength: 500, value: shown.description },
  ];
}

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const [category, categories] = await Promise.all([getCostCategory(deps, principal, c.req.param("id") ?? ""), allCategories(c)]);
  const base = `/console/cost-categories/${category.id}`;
  return c.html(
    <RecordPage
      c={c}
      list="/console/cost-categories"
      listLabel="Cost categories"
      title={category.name}
      about={
        <>
          Formula variable <code>expenses.{category.key}</code>
          {category.archived ? " · archived" : ""}
        </>
      }
      base={base}
      fields={categoryFields(categories, category)}
      state={state}
    >
      <DeleteForm
        base={base}
        noun="category"
        explain="Only a category nothing uses can be deleted (no formula, expense, child, supplier default or AWS connection); otherwise archive it."
        state={state}
      />
    </RecordPage>,
    status,
  );
}

const USERS = [
  ["expenses", "expense", "expenses"],
  ["children", "child category", "child categories"],
  ["suppliers", "supplier's default", "suppliers' default"],
  ["awsConnections", "AWS connection", "AWS connections"],
] as const;

/** The service's delete; its 409 IN_USE counts (not formulas: those it names itself) said in words. */
async function deleteInWords(deps: Deps, principal: Principal, id: string) {
  try {
    return await deleteCostCategory(deps, principal, id);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "IN_USE" || err.details.formulas) throw err;
    const uses = USERS.flatMap(([field, one, many]) => {
      const n = Number(err.details[field] ?? 0);
      return n > 0 ? [`${n} ${n === 1 ? one : many}`] : [];
    });
    throw new ApiError("IN_USE", `This category is in use (${uses.join(", ")}); archive it instead.`, err.details);
  }
}

export function registerCostCategoryEditPages(app: Hono<ConsoleEnv>) {
  app.get("/cost-categories/:id/edit", (c) => render(c, {}));

  editAction(app, "/cost-categories", {
    fields: CATEGORY_FIELDS,
    nullable: ["parentId", "description"],
    read: getCostCategory,
    shown: shownCategory,
    update: (deps, principal, id, body) => updateCostCategory(deps, principal, id, parseForm(UpdateCostCategoryBody, body)),
    done: (c) => `/console/cost-categories?done=updated&id=${c.req.param("id")}`,
    render,
  });

  deleteAction(app, "/cost-categories", deleteInWords, "/console/cost-categories?done=deleted", render);
}
