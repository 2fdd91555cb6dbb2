// Gateway account: the workspace's upstream credential for this host's environment. Set or replace the
// upstream key (never shown back), Verify it, rotate the inbound webhook token (shown once, in the POST's
// own response). Every action calls the gateway-accounts service; nothing here talks to the upstream.
import type { Hono } from "hono";
import { CreateGatewayAccountBody, UpdateGatewayAccountBody } from "../modules/gateway-accounts/schemas";
import {
  createGatewayAccount,
  listGatewayAccounts,
  rotateWebhookToken,
  updateGatewayAccount,
  verifyGatewayAccount,
} from "../modules/gateway-accounts/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { Alert, Page, SecretOnce } from "./layout";
import { ActionForm, ButtonForm, type FormState, formAction, Outcome } from "./parts/action-form";

type Account = Awaited<ReturnType<typeof listGatewayAccounts>>["rows"][number];
type UpstreamWebhook = { configured: boolean; errorCode?: string | undefined };

interface PageState extends FormState {
  /** The inbound token, present only in the response of the POST that issued it. */
  token?: { value: string; url: string; upstreamWebhook: UpstreamWebhook } | undefined;
}

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");

/** The account for the host's environment (a workspace has at most one per environment). */
async function currentAccount(c: ConsoleContext): Promise<Account | undefined> {
  const { deps, principal } = c.get("console");
  const { rows } = await listGatewayAccounts(deps, principal, { limit: 100, offset: 0 });
  return rows.find((a) => a.environment === principal.environment);
}

/** The account's status, in the words a merchant needs to act on it. */
export function StatusInWords({ account }: { account: Account }) {
  if (account.status === "active") {
    return (
      <p data-gateway-status="active">
        <span class="badge ok">active</span> The upstream accepted this key (verified {when(account.verifiedAt)}). Payments and passthrough
        calls use it.
      </p>
    );
  }
  if (account.status === "invalid_credentials") {
    return (
      <p data-gateway-status="invalid_credentials">
        <span class="badge bad">invalid credentials</span> The upstream refused this key. Replace it with a valid key, then press Verify.
      </p>
    );
  }
  return (
    <p data-gateway-status="unverified">
      <span class="badge warn">not verified</span> The key has not been checked yet. Press Verify to ask the upstream whether it works.
    </p>
  );
}

function UpstreamWebhookOutcome({ outcome }: { outcome: UpstreamWebhook }) {
  if (outcome.configured)
    return <p class="muted">The upstream's webhook now points at this URL with this token; nothing to configure by hand.</p>;
  return (
    <Alert kind="error">
      The upstream's webhook could not be pointed here automatically ({outcome.errorCode ?? "unknown reason"}). Configure it on the upstream
      with the URL and token above, or fix the key and press “Rotate inbound token” to try again.
    </Alert>
  );
}

async function render(c: ConsoleContext, state: PageState = {}, status = 200) {
  const { principal } = c.get("console");
  const account = await currentAccount(c);
  const canManage = principal.permissions.has("gateway_accounts.manage");
  return c.html(
    <Page title="Gateway account" shell={shellFor(c, "/console/gateway")}>
      <h1>Gateway account</h1>
      <p class="muted">
        The upstream account this workspace payments through, for the <strong>{principal.environment}</strong> environment.
      </p>
      <Outcome state={state} />
      {state.token ? (
        <>
          <SecretOnce
            id="inbound-webhook-token"
            label="Inbound webhook token (the upstream sends it in asaas-access-token)"
            value={state.token.value}
          />
          <div class="card">
            <label for="inbound-webhook-url-once">Inbound webhook URL</label>
            <div class="secret">
              <input id="inbound-webhook-url-once" type="text" readonly value={state.token.url} />
              <button type="button" class="secondary" data-copy="inbound-webhook-url-once">
                Copy
              </button>
            </div>
            <UpstreamWebhookOutcome outcome={state.token.upstreamWebhook} />
          </div>
        </>
      ) : null}
      {account ? (
        <AccountCard account={account} canManage={canManage} />
      ) : (
        <p class="muted">This workspace has no gateway account for {principal.environment} yet.</p>
      )}
      {canManage ? (
        <ActionForm
          id="upstream-key"
          title={account ? "Replace the upstream API key" : "Connect the upstream account"}
          action={account ? `/console/gateway/${account.id}/key` : "/console/gateway"}
          submit={account ? "Replace key" : "Save key"}
          state={state}
          stacked
          fields={[
            {
              name: "upstreamApiKey",
              label: "Upstream API key",
              type: "password",
              id: "upstream-api-key",
              required: true,
              autocomplete: "off",
              spellcheck: false,
              minlength: 8,
              maxlength: 512,
              hint: `Stored encrypted and never shown again (only its last 4 characters).${
                account
                  ? " Replacing it returns the account to “not verified”; the inbound token stays the same."
                  : " The inbound webhook token is shown once after you save."
              }`,
            },
          ]}
        />
      ) : (
        <p class="muted">Your role can see the gateway account but not change it.</p>
      )}
    </Page>,
    status as 200,
  );
}

function AccountCard({ account, canManage }: { account: Account; canManage: boolean }) {
  return (
    <div class="card" data-gateway-account={account.id}>
      <StatusInWords account={account} />
      <table>
        <tbody>
          <tr>
            <th scope="row">Upstream key</th>
            <td>
              <code>…{account.upstreamKeyLast4}</code>
            </td>
          </tr>
          <tr>
            <th scope="row">Last verified</th>
            <td>{when(account.verifiedAt)}</td>
          </tr>
          <tr>
            <th scope="row">
              <label for="inbound-webhook-url">Inbound webhook URL</label>
            </th>
            <td>
              <div class="secret">
                <input id="inbound-webhook-url" type="text" readonly value={account.inboundWebhookUrl} />
                <button type="button" class="secondary" data-copy="inbound-webhook-url">
                  Copy
                </button>
              </div>
            </td>
          </tr>
          <tr>
            <th scope="row">Connected</th>
            <td>{when(account.createdAt)}</td>
          </tr>
        </tbody>
      </table>
      {canManage ? (
        <div class="actions">
          <ButtonForm action={`/console/gateway/${account.id}/verify`} submit="Verify" />
          <ButtonForm action={`/console/gateway/${account.id}/rotate-token`} submit="Rotate inbound token" kind="secondary" />
        </div>
      ) : null}
    </div>
  );
}

export function registerGatewayPages(app: Hono<ConsoleEnv>) {
  app.get("/gateway", (c) => render(c));

  const ctx = (c: ConsoleContext) => c.get("console");
  // Each action answers with the page itself (a new token is shown once, in this response); a refusal, the page with the reason.
  const action = (path: string, run: (c: ConsoleContext, key: string, id: string) => Promise<PageState>, status: 200 | 201 = 200) =>
    formAction(app, `/gateway${path}`, {
      fields: ["upstreamApiKey"],
      run: (c, values, id) => run(c, values.upstreamApiKey ?? "", id),
      show: (c, result) => render(c, result as PageState, status),
      render: (c, state, failure) => render(c, { error: state.error, fieldErrors: state.fieldErrors }, failure),
    });

  action(
    "",
    async (c, key) => {
      const input = parseForm(CreateGatewayAccountBody, { upstreamApiKey: key });
      const created = await createGatewayAccount(ctx(c).deps, ctx(c).principal, input);
      return {
        notice: "Upstream account connected. Press Verify to check the key.",
        token: { value: created.inboundWebhookToken, url: created.inboundWebhookUrl, upstreamWebhook: created.upstreamWebhook },
      };
    },
    201,
  );
  action("/:id/key", async (c, key, id) => {
    const input = parseForm(UpdateGatewayAccountBody, { upstreamApiKey: key });
    const updated = await updateGatewayAccount(ctx(c).deps, ctx(c).principal, id, input);
    return { notice: `Key replaced (ends in ${updated.upstreamKeyLast4}). Press Verify to check it.` };
  });
  action("/:id/verify", async (c, _key, id) => {
    const verified = await verifyGatewayAccount(ctx(c).deps, ctx(c).principal, id);
    return verified.status === "active"
      ? { notice: "Verified: the upstream accepted the key. The account is active." }
      : { error: "The upstream refused this key, so the account is marked invalid credentials. Replace the key and verify again." };
  });
  action("/:id/rotate-token", async (c, _key, id) => {
    const rotated = await rotateWebhookToken(ctx(c).deps, ctx(c).principal, id);
    return {
      notice: "New inbound token issued; the previous one stopped working.",
      token: { value: rotated.inboundWebhookToken, url: rotated.inboundWebhookUrl, upstreamWebhook: rotated.upstreamWebhook },
    };
  });
}
