// One AWS connection: rename it, re-rate it (BRL per USD for the costs it imports from now on), re-file
// it under another cost category, change its role or access key (back to PENDING until verified), or
// delete it (the expenses it imported stay). The same services as PATCH/DELETE /api/v1/aws-connections/{id}.
import type { Hono } from "hono";
import {
  deleteAwsConnection,
  getAwsConnection,
  type listAwsConnections,
  UpdateAwsConnectionBody,
  updateAwsConnection,
} from "../../modules/aws-connections/service";
import { listCostCategories } from "../../modules/cost-categories/service";
import { type ConsoleContext, type ConsoleEnv, parseForm } from "../context";
import type { FormField, FormState } from "../parts/action-form";
import { DeleteForm, deleteAction, editAction, RecordPage } from "./record-actions";

export type Connection = Awaited<ReturnType<typeof listAwsConnections>>["rows"][number];
type Category = Awaited<ReturnType<typeof listCostCategories>>["rows"][number];

export const AWS_FIELDS = ["name", "authType", "roleArn", "accessKeyId", "secretAccessKey", "costCategoryId", "exchangeRate"] as const;

const shownConnection = (conn: Connection): Record<string, string> => ({
  name: conn.name,
  roleArn: conn.roleArn ?? "",
  accessKeyId: conn.accessKeyId ?? "",
  secretAccessKey: "",
  costCategoryId: conn.costCategoryId,
  exchangeRate: conn.exchangeRate,
});

/** The connection form's fields: a new one chooses how Ponte signs in; an edit keeps it and shows its values. */
export function awsFields(categories: Category[], conn?: Connection): FormField[] {
  const shown = conn ? shownConnection(conn) : {};
  const current = shown.costCategoryId ?? categories.find((k) => k.key === "infrastructure" && !k.archived)?.id;
  const role = !conn || conn.authType === "ROLE";
  const key = !conn || conn.authType === "ACCESS_KEY";
  const only = (what: string) => (conn ? "" : ` (${what} only)`);
  return [
    { name: "name", label: "Name", required: true, maxlength: 120, value: shown.name },
    ...(conn
      ? []
      : [
          {
            name: "authType",
            label: "How Ponte signs in",
            type: "select" as const,
            options: [
              { value: "ROLE", label: "A role Ponte assumes (recommended; an external id is generated for its trust policy)" },
              { value: "ACCESS_KEY", label: "An access key (read-only IAM user)" },
            ],
          },
        ]),
    ...(role
      ? [
          {
            name: "roleArn",
            label: `Role ARN${only("role")}`,
            placeholder: "arn:aws:iam::123456789012:role/PonteCostReader",
            value: shown.roleArn,
          },
        ]
      : []),
    ...(key
      ? [
          { name: "accessKeyId", label: `Access key id${only("access key")}`, value: shown.accessKeyId },
          {
            name: "secretAccessKey",
            label: `${conn ? "New secret" : "Secret"} access key${only("access key")}`,
            type: "password" as const,
            hint: conn
              ? "Give a new key id and its secret together to replace the key; leave both as they are to keep it."
              : "Stored encrypted and never shown again.",
          },
        ]
      : []),
    {
      name: "costCategoryId",
      label: "Cost category",
      type: "select",
      value: current,
      options: categories
        .filter((k) => !k.archived || k.id === current)
        .map((k) => ({ value: k.id, label: k.archived ? `${k.name} (archived)` : k.name })),
    },
    {
      name: "exchangeRate",
      label: "Exchange rate (BRL per USD)",
      inputmode: "decimal",
      required: true,
      placeholder: "5.40",
      value: shown.exchangeRate,
      hint: conn ? "Applies to costs imported from now on (the next sync re-prices the days it covers)." : undefined,
    },
  ];
}

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const [conn, categories] = await Promise.all([
    getAwsConnection(deps, principal, c.req.param("id") ?? ""),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const base = `/console/aws-connections/${conn.id}`;
  return c.html(
    <RecordPage
      c={c}
      list="/console/aws-connections"
      listLabel="AWS connections"
      plural="AWS connections"
      title={conn.name}
      about={
        <>
          {conn.authType === "ROLE" ? "Role" : "Access key"} · <span data-status={conn.status}>{conn.status.toLowerCase()}</span>
          {conn.awsAccountId ? ` · account ${conn.awsAccountId}` : ""}
        </>
      }
      base={base}
      fields={awsFields(categories.rows, conn)}
      state={state}
    >
      <DeleteForm
        base={base}
        noun="connection"
        explain="Ponte stops importing this account's costs and forgets its credentials. The expenses it imported stay."
        state={state}
      />
    </RecordPage>,
    status,
  );
}

export function registerAwsConnectionEditPages(app: Hono<ConsoleEnv>, back: (done: string, id: string) => string) {
  app.get("/aws-connections/:id/edit", (c) => render(c, {}));

  editAction(app, "/aws-connections", {
    fields: AWS_FIELDS.filter((f) => f !== "authType"),
    read: getAwsConnection,
    shown: shownConnection,
    update: (deps, principal, id, body, values) => {
      // A key id and its secret travel together: a new secret for the same key id sends both.
      if (body.secretAccessKey !== undefined) body.accessKeyId ??= values.accessKeyId ?? "";
      return updateAwsConnection(deps, principal, id, parseForm(UpdateAwsConnectionBody, body));
    },
    done: (c) => back("updated", c.req.param("id") ?? ""),
    render,
  });

  deleteAction(app, "/aws-connections", deleteAwsConnection, "/console/aws-connections?done=deleted", render);
}
