// The e2e project's one local worker: started before the first test file, stopped after the last. Tests read
// what a client needs with `inject("ponte")`.
import type { TestProject } from "vitest/node";
import { startLocalWorker } from "../../scripts/lib/local-worker.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    ponte: { baseUrl: string; apiKey: string; organizationId: string; workspaceId: string };
  }
}

export default async function setup(project: TestProject) {
  const worker = await startLocalWorker();
  project.provide("ponte", {
    baseUrl: worker.baseUrl,
    apiKey: worker.apiKey,
    organizationId: worker.organizationId,
    workspaceId: worker.workspaceId,
  });
  return () => worker.stop();
}
