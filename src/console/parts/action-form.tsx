// The console's one action form. A same-origin POST (the console's CSRF rule: requireConsoleSession refuses a
// cookie-authenticated write whose Origin is not this origin) to one service call; on success a redirect (so a
// reload does not repeat it) to a page that says the outcome; on an expected failure the same page again with the
// outcome in words, each wrong field's message beside that field (aria-invalid, aria-describedby) and what was typed.
// Create and edit pages alike: give `fields` (with `value` as the record's current value for an edit) and `formAction`.
import type { Hono } from "hono";
import type { Child } from "hono/jsx";
import { ApiError } from "../../http/errors";
import { type ConsoleContext, type ConsoleEnv, isExpected, plainError, statusOf } from "../context";
import { Alert } from "../layout";
import type { FilterOption } from "./filter-bar";

export interface FormState {
  error?: string | undefined;
  notice?: string | undefined;
  /** What was typed, by field name, to show again after a refusal. */
  values?: Record<string, string> | undefined;
  /** A message per field name (the API's VALIDATION_FAILED paths, `body.` dropped). */
  fieldErrors?: Record<string, string> | undefined;
}

export interface FormField {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "url" | "date" | "select" | "textarea";
  options?: readonly FilterOption[];
  /** The initial value (an edit form's current value); what was typed wins after a refusal. */
  value?: string | undefined;
  required?: boolean;
  placeholder?: string;
  inputmode?: "decimal" | "numeric";
  maxlength?: number;
  hint?: Child;
  /** The element id (default `<form id>-<name>`). */
  id?: string;
  /** Extra attributes of the control (e.g. `pattern`, data-* hooks of a page script). */
  attrs?: Record<string, string | undefined>;
  /** Ids of further elements that describe the control (e.g. a live status region). */
  describedBy?: string;
}

/** The outcome of the last action: the notice or the error, in words. */
export const Outcome = ({ state }: { state: FormState }) => (
  <>
    {state.error ? <Alert kind="error">{state.error}</Alert> : null}
    {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
  </>
);

const optionOf = (o: FilterOption) => (typeof o === "string" ? { value: o, label: o } : o);

export function Field({ field, formId, state }: { field: FormField; formId: string; state: FormState }) {
  const id = field.id ?? `${formId}-${field.name}`;
  const value = state.values?.[field.name] ?? field.value ?? "";
  const error = state.fieldErrors?.[field.name];
  const described =
    [error ? `${id}-error` : "", field.hint ? `${id}-hint` : "", field.describedBy ?? ""].filter(Boolean).join(" ") || undefined;
  const common = {
    ...field.attrs,
    id,
    name: field.name,
    required: field.required,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": described,
  };
  return (
    <div class="field">
      <label for={id}>{field.label}</label>
      {field.type === "select" ? (
        <select {...common}>
          {(field.options ?? []).map(optionOf).map((o) => (
            <option value={o.value} selected={value === o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : field.type === "textarea" ? (
        <textarea {...common} rows={3} maxlength={field.maxlength}>
          {value}
        </textarea>
      ) : (
        <input
          {...common}
          type={field.type ?? "text"}
          value={field.type === "password" ? "" : value}
          placeholder={field.placeholder}
          inputmode={field.inputmode}
          maxlength={field.maxlength}
        />
      )}
      {field.hint ? (
        <p class="muted" id={`${id}-hint`}>
          {field.hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A card with an optional heading, the fields in a grid, anything else (`children`) and the submit button. */
export function ActionForm(props: {
  id: string;
  action: string;
  submit: string;
  fields?: FormField[];
  state?: FormState;
  title?: string;
  children?: Child;
  /** Without the card (e.g. a one-button form in a table row). */
  bare?: boolean;
  submitClass?: string;
  submitLabel?: string;
}) {
  const state = props.state ?? {};
  const form = (
    <form method="post" action={props.action} id={props.id} class={props.bare ? "inline" : undefined}>
      {props.fields?.length ? (
        <div class="grid">
          {props.fields.map((f) => (
            <Field field={f} formId={props.id} state={state} />
          ))}
        </div>
      ) : null}
      {props.children}
      {props.bare ? (
        <button type="submit" class={props.submitClass} aria-label={props.submitLabel}>
          {props.submit}
        </button>
      ) : (
        <div class="actions">
          <button type="submit" class={props.submitClass} aria-label={props.submitLabel}>
            {props.submit}
          </button>
        </div>
      )}
    </form>
  );
  if (props.bare) return form;
  return (
    <div class="card">
      {props.title ? <h2>{props.title}</h2> : null}
      {form}
    </div>
  );
}

/** The API's field messages of a VALIDATION_FAILED, by form field name. */
export function fieldErrorsOf(err: unknown): Record<string, string> | undefined {
  if (!(err instanceof ApiError) || err.code !== "VALIDATION_FAILED") return undefined;
  const fields = (err.details.fields as { path: string; message: string }[] | undefined) ?? [];
  return Object.fromEntries(fields.map((f) => [f.path.replace(/^(body|query)\./, ""), f.message]));
}

/** The posted values of `names`, trimmed (a missing one is ""). */
export async function postedValues(c: ConsoleContext, names: readonly string[]) {
  const form = await c.req.parseBody();
  return Object.fromEntries(names.map((k) => [k, typeof form[k] === "string" ? form[k].trim() : ""]));
}

/** The typed values without the empty ones: an API body, an empty field meaning "not given". */
export const bodyOf = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));

/**
 * POST `path` → `run(c, values, id)` (the route's `:id`, when it has one) → 303 to `done`; an expected failure
 * renders the page with the outcome, the field errors and the typed values, under the error's status.
 */
export function formAction(
  app: Hono<ConsoleEnv>,
  path: string,
  options: {
    fields?: readonly string[];
    run: (c: ConsoleContext, values: Record<string, string>, id: string) => Promise<unknown>;
    done: string | ((c: ConsoleContext, result: unknown) => string);
    render: (c: ConsoleContext, state: FormState, status: 400) => Promise<Response>;
  },
) {
  app.post(path, async (c) => {
    const values = await postedValues(c, options.fields ?? []);
    try {
      const result = await options.run(c, values, c.req.param("id") ?? "");
      return c.redirect(typeof options.done === "string" ? options.done : options.done(c, result), 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return options.render(c, { error: plainError(err), fieldErrors: fieldErrorsOf(err), values }, statusOf(err) as 400);
    }
  });
}
