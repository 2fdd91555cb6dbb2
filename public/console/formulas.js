// Live validation of a formula's expression: 300 ms after the last keystroke, posts it to the box's
// data-validate-url (same origin, the session cookie) and shows what each variable refers to, or the error
// with a caret under the position the server names. No inline code; the CSP admits this file as 'self'.
(() => {
  const DELAY_MS = 300;
  const KINDS = { metric: "metric", expenses: "cost category", formula: "formula" };

  function show(status, parts) {
    status.replaceChildren(...parts);
  }
  function text(tag, className, content) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    el.textContent = content;
    return el;
  }

  function attach(box) {
    const status = document.getElementById(box.getAttribute("data-validate-status"));
    if (!status) return;
    let timer = 0;
    let seq = 0;
    async function validate() {
      const expression = box.value;
      const mine = ++seq;
      if (expression.trim() === "") {
        box.removeAttribute("aria-invalid");
        show(status, []);
        return;
      }
      let res;
      let body;
      try {
        res = await fetch(box.getAttribute("data-validate-url"), {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ expression }),
        });
        body = await res.json();
      } catch {
        if (mine === seq) show(status, [text("p", "muted", "Could not check the expression just now.")]);
        return;
      }
      if (mine !== seq) return; // a newer keystroke is being checked
      if (!res.ok) {
        show(status, [text("p", "muted", body.error?.message ?? "Could not check the expression just now.")]);
        return;
      }
      if (body.data.valid) {
        box.setAttribute("aria-invalid", "false");
        // What each variable names (the metric, cost category or formula), as the saved formula will answer it.
        const refs = body.data.references ?? [];
        const parts = [text("p", "badge ok", refs.length ? "Valid. It uses:" : "Valid.")];
        if (refs.length) {
          const list = document.createElement("ul");
          list.setAttribute("data-references", "");
          for (const r of refs) {
            const item = document.createElement("li");
            item.append(text("code", "", r.variable), ` — ${KINDS[r.kind] ?? r.kind} ${r.name ?? "(unknown)"}`);
            list.append(item);
          }
          parts.push(list);
        }
        show(status, parts);
        return;
      }
      box.setAttribute("aria-invalid", "true");
      const error = body.data.error;
      const position = error.position;
      const parts = [text("p", "badge bad", error.message ?? "Invalid expression.")];
      if (typeof position === "number") {
        // The expression with a caret under the character the server named (0-based).
        parts.push(text("pre", "mono", `${expression}\n${" ".repeat(Math.min(position, expression.length))}^`));
      }
      show(status, parts);
    }
    box.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(validate, DELAY_MS);
    });
    if (box.value.trim() !== "") validate();
  }

  for (const box of document.querySelectorAll("[data-validate-url]")) attach(box);
})();
