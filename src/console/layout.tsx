// The console's page shell: one inline stylesheet and one tiny copy-button script (both under a
// per-response CSP nonce), same-origin files a page asks for (charts), the navigation, and the
// organization/workspace switcher.
import type { Child } from "hono/jsx";
import type { MembershipView } from "../modules/accounts/service";

// Colours meet WCAG 2.1 AA contrast (4.5:1 for text): muted text #486581 is 6.3:1 on white, every link in the navy
// header is light (#e4e7eb, 12:1) — the browser test runs axe-core on every page and fails on a serious violation.
const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
a{color:#1d4ed8}a:hover{color:#1e3a8a}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
header{background:#102a43;color:#fff;padding:.6rem 1.5rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header a{color:#e4e7eb}header a:hover{color:#fff}
header .brand{font-weight:700;font-size:1.1rem;color:#fff;text-decoration:none;margin-right:1rem}
.header-tools{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-left:auto}
header form{display:flex;gap:.4rem;align-items:center;margin:0}
.shell{display:flex;align-items:flex-start}
.sidebar{flex:0 0 14rem;background:#fff;border-right:1px solid #d9e2ec;min-height:calc(100vh - 3.5rem);padding:.75rem .5rem}
.sidebar ul{list-style:none;margin:0 0 .6rem;padding:0}
.nav-heading{margin:.4rem .6rem .2rem;font-size:.75rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:#486581}
.sidebar nav a{display:block;color:#243b53;text-decoration:none;padding:.3rem .6rem;border-radius:4px}
.sidebar nav a:hover{background:#f0f4f8;color:#102a43}
.sidebar nav a[aria-current=page]{background:#102a43;color:#fff;font-weight:600}
.nav-toggle{position:absolute;opacity:0;width:1px;height:1px}
.nav-toggle-label{display:none}
.shell main{flex:1;min-width:0;margin:1.5rem auto}
@media (max-width:760px){.shell{display:block}.sidebar{min-height:0;border-right:0;border-bottom:1px solid #d9e2ec;padding:.5rem 1rem}
.nav-toggle-label{display:inline-block;font-weight:600;margin:0;padding:.35rem .8rem;border:1px solid #1d4ed8;border-radius:4px;color:#1d4ed8;cursor:pointer}
.nav-toggle-label::before{content:"☰ "}.nav-toggle:checked+.nav-toggle-label::before{content:"✕ "}
.nav-toggle:focus-visible+.nav-toggle-label{outline:3px solid #2563eb;outline-offset:2px}
.sidebar nav{display:none;margin-top:.5rem}.nav-toggle:checked~nav{display:block}
.sidebar nav{columns:2 10rem}.nav-group{break-inside:avoid}
header .who{display:none}main{padding:0 1rem}
table{table-layout:fixed}th,td{overflow-wrap:anywhere;padding:.35rem .3rem}form.inline{flex-wrap:wrap}}
header label{font-size:.8rem;color:#bcccdc}
header select{max-width:14rem}
main{max-width:1100px;margin:1.5rem auto;padding:0 1.5rem}
h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .6rem}
.card{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.narrow{max-width:28rem;margin:3rem auto}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:1rem}.grid>.wide{grid-column:1/-1}
.stat{font-size:2rem;font-weight:700}.muted{color:#486581;font-size:.9rem}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=date],select,textarea{width:100%;padding:.45rem .6rem;border:1px solid #9fb3c8;border-radius:4px;font:inherit;background:#fff}
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
.table-wrap{overflow-x:auto}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.field-error{color:#b91c1c;font-size:.9rem;margin:.2rem 0 0}[aria-invalid=true]{border-color:#b91c1c}label.check{font-weight:400;display:flex;gap:.4rem;align-items:center}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
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

/** The sidebar: a merchant's day in six groups. Labels are the links' accessible names (tests click them by name). */
export const NAV_GROUPS: { label: string; items: [href: string, label: string][] }[] = [
  {
    label: "Home",
    items: [
      ["/console/dashboard", "Dashboard"],
      ["/console", "Overview"],
    ],
  },
  {
    label: "Billing",
    items: [
      ["/console/customers", "Customers"],
      ["/console/payments", "Payments"],
      ["/console/subscriptions", "Subscriptions"],
      ["/console/plans", "Plans"],
    ],
  },
  {
    label: "Finance",
    items: [
      ["/console/expenses", "Expenses"],
      ["/console/suppliers", "Suppliers"],
      ["/console/cost-categories", "Cost categories"],
      ["/console/aws-connections", "AWS connections"],
    ],
  },
  {
    label: "Analytics",
    items: [
      ["/console/metrics", "Metrics"],
      ["/console/formulas", "Formulas"],
      ["/console/profitability", "Profitability"],
    ],
  },
  {
    label: "Developers",
    items: [
      ["/console/api-keys", "API keys"],
      ["/console/webhooks", "Webhook endpoints"],
      ["/console/webhook-logs", "Webhook log"],
      ["/console/gateway", "Gateway account"],
      ["/console/gateway-logs", "Gateway log"],
      ["/api/v1/docs", "API reference"],
      ["/console/listen", "Listen for webhooks"],
    ],
  },
  {
    label: "Settings",
    items: [
      ["/console/organization", "Organization"],
      ["/console/workspaces", "Workspaces"],
      ["/console/team", "Team"],
      ["/console/audit", "Audit log"],
    ],
  },
];

/**
 * The grouped sidebar. Under 760 px it folds behind a "Menu" toggle: a real checkbox (focusable, Space toggles
 * it) whose :checked state shows the list — no script needed.
 */
function Sidebar({ active }: { active: string | undefined }) {
  return (
    <aside class="sidebar">
      <input type="checkbox" id="nav-toggle" class="nav-toggle" aria-controls="console-nav" aria-label="Menu" />
      <label for="nav-toggle" class="nav-toggle-label">
        Menu
      </label>
      <nav id="console-nav" aria-label="Console">
        {NAV_GROUPS.map((group) => {
          const id = `nav-${group.label.toLowerCase()}`;
          return (
            <div class="nav-group">
              <p class="nav-heading" id={id}>
                {group.label}
              </p>
              <ul aria-labelledby={id}>
                {group.items.map(([href, label]) => (
                  <li>
                    <a href={href} aria-current={active === href ? "page" : undefined}>
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
    </aside>
  );
}

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
            <div class="header-tools">
              {shell.memberships && shell.current ? <Switcher memberships={shell.memberships} current={shell.current} /> : null}
              <form method="post" action="/console/sign-out">
                <span class="who">{shell.user.email}</span>
                <button type="submit" class="secondary">
                  Sign out
                </button>
              </form>
            </div>
          ) : null}
        </header>
        {shell.user ? (
          <div class="shell">
            <Sidebar active={shell.active} />
            <main id="main">{props.children}</main>
          </div>
        ) : (
          <main id="main">{props.children}</main>
        )}
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
