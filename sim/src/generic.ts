// Plausible, shape-correct answers for catalogue operations the simulator does not model.
import type { CatalogueOperation } from "../../src/compat/catalogue";
import type { SimContext } from "./context";
import { isObject, isoDate, listBody, newId, readPage, type Json } from "./http";

/** `object` name and id prefix from the first path segment after /v3 (e.g. installments → installment, ins_). */
function resourceOf(op: CatalogueOperation): { object: string; prefix: string } {
  const first = op.upstreamPath.split("/")[2] ?? "object";
  const object = first.endsWith("s") ? first.slice(0, -1) : first;
  return { object, prefix: object.slice(0, 3).toLowerCase() };
}

function isCollectionGet(op: CatalogueOperation): boolean {
  return op.upstreamMethod === "GET" && (op.operationId.startsWith("listar") || /^Listar\b/i.test(op.title));
}

async function describeForm(form: FormData): Promise<Json> {
  const files: Json[] = [];
  const fields: Json = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields[name] = value;
    else files.push({ field: name, name: value.name, size: value.size, type: value.type || "application/octet-stream" });
  }
  return { files, fields };
}

export async function genericAnswer(ctx: SimContext, op: CatalogueOperation): Promise<Json> {
  const { object, prefix } = resourceOf(op);
  const params = ctx.params;
  const ownId = params.id ?? Object.values(params).at(-1);
  switch (op.upstreamMethod) {
    case "GET":
      if (isCollectionGet(op)) return listBody([], readPage(ctx.query));
      return { object, id: ownId ?? newId(prefix), ...params, dateCreated: isoDate() };
    case "DELETE":
      return { deleted: true, id: ownId ?? newId(prefix) };
    default: {
      if (ctx.form) return { object, id: newId(prefix), ...params, dateCreated: isoDate(), ...(await describeForm(ctx.form)) };
      const body = isObject(ctx.body) ? ctx.body : {};
      return { object, ...body, ...params, id: op.upstreamMethod === "PUT" && ownId ? ownId : newId(prefix), dateCreated: isoDate() };
    }
  }
}
