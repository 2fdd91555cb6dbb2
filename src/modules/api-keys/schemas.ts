import { z } from "@hono/zod-openapi";
import { PERMISSIONS } from "../../lib/permissions";

export const PermissionName = z.enum(PERMISSIONS as [string, ...string[]]).openapi({ example: "subscriptions.read" });

export const ApiKey = z
  .object({
    id: z.uuid(),
    object: z.literal("api_key"),
    name: z.string(),
    environment: z.enum(["live", "test"]),
    workspaceId: z.uuid().nullable().openapi({ description: "Null: the key may act in any workspace of the organization." }),
    permissions: z.array(z.string()),
    displayPrefix: z.string().openapi({ example: "ponte_test_Ab3d" }),
    last4: z.string().openapi({ example: "x9Qz" }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    replacedBy: z.uuid().nullable(),
  })
  .openapi("ApiKey");

export const ApiKeyWithSecret = ApiKey.extend({
  secret: z.string().openapi({ description: "The full key. Shown only in this response; store it now.", example: "ponte_test_…" }),
}).openapi("ApiKeyWithSecret");

export const CreateApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    permissions: z.array(PermissionName).min(1).max(64),
    workspaceId: z
      .uuid()
      .nullable()
      .optional()
      .openapi({ description: "Bind the key to one workspace; omit or null for organization-wide." }),
    environment: z
      .enum(["live", "test"])
      .optional()
      .openapi({ description: "Defaults to the host's environment, the only one it accepts." }),
  })
  .openapi("CreateApiKey");

export const ApiKeyIdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
