// The headers that choose a tenant when a credential allows several.
export const ORGANIZATION_HEADER = "X-Organization-Id";
export const WORKSPACE_HEADER = "X-Workspace-Id";
