// "Listen for webhooks": the `npm run listen` command line for this organization and workspace (docs/webhooks.md "Webhooks on
// your machine"), with the forward-to URL and event patterns the form asks for, and which of the workspace's API keys
// can run it (it needs webhook_endpoints.manage). No action here: the CLI registers its own temporary endpoint.
import type { Hono } from "hono";
import { EVENT_KINDS } from "../events/kinds";
import { listApiKeys } from "../modules/api-keys/service";
import type { ConsoleEnv } from "./context";
import { shellFor } from "./context";
import { Page } from "./layout";
import { DataTable } from "./parts/data-table";
import { FilterBar, filtersOf } from "./parts/filter-bar";

/** A shell word: as is when it is plain, else single-quoted. */
const shellWord = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replaceAll("'", `'\\''`)}'`);
const isLocal = (base: string) => /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(base);

export function registerListenPage(app: Hono<ConsoleEnv>) {
  app.get("/listen", async (c) => {
    const { deps, principal } = c.get("console");
    const base = (deps.env.PUBLIC_BASE_URL ?? new URL(c.req.url).origin).replace(/\/+$/, "");
    const { forwardTo = "http://localhost:3000/webhooks", events } = filtersOf(c, ["forwardTo", "events"] as const);
    const keys = principal.permissions.has("api_keys.read")
      ? (await listApiKeys(deps, principal, { limit: 100, offset: 0 })).rows.filter(
          (k) =>
            !k.revokedAt &&
            k.permissions.includes("webhook_endpoints.manage") &&
            (k.workspaceId === null || k.workspaceId === principal.workspaceId),
        )
      : null;
    const command = [
      "PONTE_API_KEY=<your key> npm run listen --",
      `--api ${shellWord(base)}`,
      `--organization ${principal.organizationId}`,
      `--workspace ${principal.workspaceId}`,
      ...(events ? [`--events ${shellWord(events)}`] : []),
      `--forward-to ${shellWord(forwardTo)}`,
    ].join(" \\\n  ");
    return c.html(
      <Page title="Listen for webhooks" shell={shellFor(c, "/console/listen")}>
        <h1>Listen for webhooks</h1>
        <p>
          Forward this workspace's events to a server on your machine. The command registers a temporary webhook endpoint, prints its
          signing secret, re-signs each delivery for your server and deletes the endpoint when you stop it (Ctrl-C).
        </p>
        <FilterBar
          c={c}
          path="/console/listen"
          label="Command options"
          submit="Update command"
          fields={[
            { name: "forwardTo", label: "Forward to (your server's webhook URL)", placeholder: "http://localhost:3000/webhooks" },
            { name: "events", label: "Events (empty: all)", placeholder: "payment.*,subscription.created" },
          ]}
        />
        <div class="card">
          <label for="listen-command">Run in the Ponte repository</label>
          <div class="secret">
            <textarea id="listen-command" readonly rows={6} class="mono">
              {command}
            </textarea>
            <button type="button" class="secondary" data-copy="listen-command">
              Copy
            </button>
          </div>
          <p class="muted">
            Transport:{" "}
            {isLocal(base)
              ? "http — a receiver on 127.0.0.1 is the endpoint's URL"
              : "ws — the CLI holds a WebSocket to this API, which cannot reach your machine"}
            . Event kinds: {EVENT_KINDS.length} (e.g. <code>payment.*</code>, <code>subscription.*</code>, <code>upstream.*</code>).
          </p>
        </div>
        <h2>Keys that can listen here</h2>
        {keys === null ? (
          <p class="muted">Your role cannot see API keys; ask an admin for a key with webhook_endpoints.manage.</p>
        ) : (
          <DataTable
            rows={keys}
            empty={
              <>
                No key of this workspace has webhook_endpoints.manage yet: <a href="/console/api-keys">create one</a>.
              </>
            }
            columns={[
              { label: "Name", cell: (k) => k.name },
              { label: "Key", cell: (k) => `${k.displayPrefix}…${k.last4}`, mono: true },
              { label: "Scope", cell: (k) => (k.workspaceId ? "this workspace" : "every workspace") },
            ]}
          />
        )}
      </Page>,
    );
  });
}
