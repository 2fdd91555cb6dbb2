// /api/v1/docs: a self-contained reference page rendered from the OpenAPI document, with a small
// "try it" form. No external scripts, fonts or CDNs.
import { html, raw } from "hono/html";

interface OperationLike {
  operationId?: string;
  summary?: string;
  tags?: string[];
  "x-permission"?: string;
  "x-surface"?: string;
  "x-implementation"?: string;
}

export function renderDocsPage(doc: { info: { title: string; version: string }; paths?: Record<string, Record<string, OperationLike>> }) {
  const byTag = new Map<string, { method: string; path: string; op: OperationLike }[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] ?? "other";
      const list = byTag.get(tag) ?? [];
      list.push({ method: method.toUpperCase(), path, op });
      byTag.set(tag, list);
    }
  }
  const groups = [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b));
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} ${doc.info.version} — API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232a;background:#fafafa}
header{background:#12343b;color:#fff;padding:1rem 2rem}
main{display:grid;grid-template-columns:16rem 1fr;gap:2rem;padding:1rem 2rem}
nav a{display:block;color:#12343b;text-decoration:none;padding:.1rem 0}
section{margin-bottom:2rem} h2{border-bottom:1px solid #ddd}
.op{display:grid;grid-template-columns:5rem 1fr;gap:.5rem;padding:.3rem 0;border-bottom:1px dotted #e3e3e3}
.m{font:600 12px monospace;padding:.1rem .4rem;border-radius:3px;background:#e8eef0;text-align:center}
code{font:13px monospace} small{color:#5a6570}
form{background:#fff;border:1px solid #ddd;padding:1rem;margin:1rem 0} input,select,textarea{font:13px monospace;width:100%;box-sizing:border-box;margin:.2rem 0}
pre{background:#fff;border:1px solid #ddd;padding:1rem;overflow:auto;max-height:24rem}
</style>
</head>
<body>
<header><h1>${doc.info.title} <small style="color:#cde">v${doc.info.version}</small></h1>
<p>Machine-readable: <a style="color:#fff" href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1)</p></header>
<main>
<nav aria-label="Groups">${groups.map(([t, ops]) => html`<a href="#${encodeURIComponent(t)}">${t} (${ops.length})</a>`)}</nav>
<div>
<form id="try" aria-label="Try a request">
<strong>Try it</strong>
<label>API key <input name="key" type="password" autocomplete="off" placeholder="ponte_test_…"></label>
<label>Method <select name="method"><option>GET</option><option>POST</option><option>PUT</option><option>PATCH</option><option>DELETE</option></select></label>
<label>Path <input name="path" value="/api/v1/health"></label>
<label>JSON body <textarea name="body" rows="4"></textarea></label>
<button type="submit">Send</button>
<pre id="out" aria-live="polite"></pre>
</form>
${groups.map(
  ([t, ops]) => html`<section id="${encodeURIComponent(t)}"><h2>${t}</h2>
${ops.map(
  ({ method, path, op }) => html`<div class="op"><span class="m">${method}</span><div><code>${path}</code> — ${op.summary ?? ""}
<br><small>${op.operationId ?? ""}${op["x-permission"] ? ` · permission ${op["x-permission"]}` : ""}${op["x-surface"] ? ` · surface ${op["x-surface"]}` : ""}${op["x-implementation"] ? ` · ${op["x-implementation"]}` : ""}</small></div></div>`,
)}</section>`,
)}
</div></main>
<script>${raw(`document.getElementById("try").addEventListener("submit",async(e)=>{e.preventDefault();const f=new FormData(e.target);const h={};if(f.get("key"))h.Authorization="Bearer "+f.get("key");const b=f.get("body");if(b)h["Content-Type"]="application/json";const out=document.getElementById("out");try{const r=await fetch(f.get("path"),{method:f.get("method"),headers:h,body:b||undefined});out.textContent=r.status+" "+r.statusText+"\\n"+JSON.stringify(await r.json(),null,2)}catch(err){out.textContent=String(err)}});`)}</script>
</body></html>`;
}
