// The console's page shell: one inline stylesheet and one tiny copy-button script (both under a
// per-response CSP nonce), same-origin files a page asks for (charts), the navigation, and the
// organization/workspace switcher.
import type { Child } from "hono/jsx";
import type { MembershipView } from "../modules/accounts/service";

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
a{color:#1d4ed8}a:hover{color:#1e3a8a}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
header{background:#102a43;color:#fff;padding:.6rem 1.5rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header .brand{font-weight:700;font-size:1.1rem;color:#fff;text-decoration:none;margin-right:1rem}
header nav{display:flex;gap:.25rem;flex-wrap:wrap;flex:1}
header nav a{color:#d9e2ec;text-decoration:none;padding:.35rem .6rem;border-radius:4px}
header nav a[aria-current=page]{background:#243b53;color:#fff}
header nav a:hover{background:#334e68;color:#fff}
header form{display:flex;gap:.4rem;align-items:center;margin:0}
header label{font-size:.8rem;color:#bcccdc}
header select{max-width:14rem}
main{max-width:1100px;margin:1.5rem auto;padding:0 1.5rem}
h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .6rem}
.card{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.narrow{max-width:28rem;margin:3rem auto}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:1rem}
.stat{font-size:2rem;font-weight:700}.muted{color:#627d98;font-size:.9rem}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=email],input[type=password],input[type=url],select,textarea{width:100%;padding:.45rem .6rem;border:1px solid #9fb3c8;border-radius:4px;font:inherit;background:#fff}
header select{width:auto}
fieldset{border:1px solid #d9e2ec;border-radius:6px;margin:.8rem 0;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .3rem}
.checks{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.1rem 1rem}
.checks label{font-weight:400;margin:.15rem 0;display:flex;gap:.4rem;align-items:center}
button,.button{display:inline-block;padding:.45rem .9rem;border:1px solid #1d4ed8;border-radius:4px;background:#1d4ed8;color:#fff;font:inherit;cursor:pointer;text-decoration:none}
button:hover{background:#1e40af}
button.secondary{background:#fff;color:#1d4ed8}button.secondary:hover{background:#eff6ff}
button.danger{background:#fff;color:#b91c1c;border-color:#b91c1c}button.danger:hover{background:#fef2f2}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center;margin-top:1rem}
table{width:100%;border-collapse:collapse;background:#fff}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e4e7eb;vertical-align:top}
th{font-size:.85rem;color:#486581;background:#f0f4f8}
td form{display:inline;margin:0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;background:#e4e7eb}
.badge.ok{background:#d1fae5;color:#065f46}.badge.bad{background:#fee2e2;color:#991b1b}.badge.warn{background:#fef3c7;color:#92400e}
.alert{border-radius:6px;padding:.75rem 1rem;margin-bottom:1rem;border:1px solid}
.alert.error{background:#fef2f2;border-color:#fca5a5;color:#7f1d1d}.alert.success{background:#ecfdf5;border-color:#6ee7b7;color:#064e3b}
.secret{display:flex;gap:.5rem;align-items:center}.secret input{font-family:ui-monospace,monospace}
.who{color:#bcccdc;font-size:.9rem}
pre{white-space:pre-wrap;word-break:break-word;background:#f0f4f8;padding:.6rem;border-radius:4px}
.chart{margin:0 0 1rem}.chart-plot{min-height:280px}form.inline{display:flex;gap:.5rem;align-items:center;margin-bottom:.5rem}form.inline label{margin:0}form.inline select{width:auto}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.4rem;z-index:9}
`;

// Copies the value of the element named by data-copy; falls back to selecting it when the clipboard API is absent.
const COPY_SCRIPT = [
  `document.addEventListener("click",function(e){var b=e.target.closest("[data-copy]");if(!b)return;`,
  `var el=document.getElementById(b.getAttribute("data-copy"));if(!el)return;var v=el.value||el.textContent;function done(t){b.textContent=t;}`,
  `if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(v).then(function(){done("Copied")},`,
  `function(){el.select&&el.select();done("Press Ctrl+C")})}else{el.select&&el.select();done("Press Ctrl+C")}});`,
].join("");

export interface ShellContext {
  nonce: string;
  user?: { name: string; email: string } | undefined;
  memberships?: MembershipView[] | undefined;
  current?: { organizationId: string; workspaceId: string; role: string } | undefined;
  active?: string | undefined;
}

const NAV: [href: string, label: string][] = [
  ["/console/dashboard", "Dashboard"],
  ["/console", "Overview"],
  ["/console/metrics", "Metrics"],
  ["/console/formulas", "Formulas"],
  ["/console/cost-categories", "Cost categories"],
  ["/console/api-keys", "API keys"],
  ["/console/webhooks", "Webhook endpoints"],
  ["/console/webhook-logs", "Webhook log"],
  ["/console/gateway", "Gateway account"],
  ["/console/team", "Team"],
];

function Switcher({ memberships, current }: { memberships: MembershipView[]; current: NonNullable<ShellContext["current"]> }) {
  return (
    <form method="post" action="/console/switch">
      <label for="switch-tenant">Acting in</label>
      <select id="switch-tenant" name="tenant">
        {memberships.map((m) => (
          <optgroup label={`${m.organizationName} (${m.role})`}>
            {m.workspaces
              .filter((w) => !w.archived)
              .map((w) => (
                <option
                  value={`${m.organizationId}.${w.id}`}
                  selected={m.organizationId === current.organizationId && w.id === current.workspaceId}
                >
                  {m.organizationName} / {w.name}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <button type="submit" class="secondary">
        Switch
      </button>
    </form>
  );
}

/** `scripts`/`styles`: same-origin files under public/ (the CSP admits 'self'), e.g. the chart library. */
export function Page(props: { title: string; shell: ShellContext; children?: Child; scripts?: string[]; styles?: string[] }) {
  const { shell } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>{`${props.title} · Ponte console`}</title>
        <style nonce={shell.nonce} dangerouslySetInnerHTML={{ __html: CSS }} />
        {(props.styles ?? []).map((href) => (
          <link rel="stylesheet" href={href} />
        ))}
        {(props.scripts ?? []).map((src) => (
          <script src={src} defer />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header>
          <a class="brand" href="/console">
            Ponte
          </a>
          {shell.user ? (
            <>
              <nav aria-label="Console">
                {NAV.map(([href, label]) => (
                  <a href={href} aria-current={shell.active === href ? "page" : undefined}>
                    {label}
                  </a>
                ))}
              </nav>
              {shell.memberships && shell.current ? <Switcher memberships={shell.memberships} current={shell.current} /> : null}
              <form method="post" action="/console/sign-out">
                <span class="who">{shell.user.email}</span>
                <button type="submit" class="secondary">
                  Sign out
                </button>
              </form>
            </>
          ) : null}
        </header>
        <main id="main">{props.children}</main>
        <script nonce={shell.nonce} dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />
      </body>
    </html>
  );
}

export const Alert = ({ kind, children }: { kind: "error" | "success"; children?: Child }) => (
  <div class={`alert ${kind}`} role={kind === "error" ? "alert" : "status"}>
    {children}
  </div>
);

/** A secret shown exactly once, with a copy button. */
export const SecretOnce = ({ id, label, value, note }: { id: string; label: string; value: string; note?: string }) => (
  <div class="card">
    <label for={id}>{label}</label>
    <div class="secret">
      <input id={id} type="text" readonly value={value} />
      <button type="button" class="secondary" data-copy={id}>
        Copy
      </button>
    </div>
    <p class="muted">{note ?? "This is the only time it is shown. Store it in your secret manager now."}</p>
  </div>
);
