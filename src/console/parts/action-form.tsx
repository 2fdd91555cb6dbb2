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
  /** What was ticked in each multi-valued field (`checks`), to show again after a refusal. */
  lists?: Record<string, string[]> | undefined;
}

export interface FormField {
  name: string;
  label: string;
  /** `checks`: a fieldset of checkboxes, one per option, posting every ticked value under `name`. */
  type?: "text" | "email" | "password" | "url" | "date" | "select" | "textarea" | "checks";
  options?: readonly FilterOption[];
  /** The initial value (an edit form's current value); what was typed wins after a refusal. */
  value?: string | undefined;
  /** `checks`: the initially ticked options; what was ticked wins after a refusal. */
  checked?: readonly string[] | undefined;
  required?: boolean;
  placeholder?: string;
  inputmode?: "decimal" | "numeric";
  minlength?: number;
  maxlength?: number;
  autocomplete?: string;
  spellcheck?: boolean;
  readonly?: boolean;
  hint?: Child;
  /** The element id (default `<form id>-<name>`). */
  id?: string;
  /** Extra attributes of the control (e.g. `pattern`, data-* hooks of a page script). */
  attrs?: Record<string, string | undefined>;
  /** Ids of further elements that describe the control (e.g. a live status region). */
  describedBy?: string;
  /** The label is read by screen readers only (e.g. a select in a table row). */
  hiddenLabel?: boolean;
  /** `checks`: each option's label in code type (identifiers such as event kinds or permissions). */
  mono?: boolean;
  /** Spans the whole row of the form's grid. */
  wide?: boolean;
}

/** The outcome of the last action: the notice or the error, in words. */
export const Outcome = ({ state }: { state: FormState }) => (
  <>
    {state.error ? <Alert kind="error">{state.error}</Alert> : null}
    {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
  </>
);

const optionOf = (o: FilterOption) => (typeof o === "string" ? { value: o, label: o } : o);

/** A fieldset of checkboxes: every ticked option is posted under the field's name. */
function Checks({ field, state }: { field: FormField; state: FormState }) {
  const ticked = state.lists?.[field.name] ?? field.checked ?? [];
  return (
    <fieldset class={field.wide ? "wide" : undefined}>
      <legend>{field.label}</legend>
      <div class="checks">
        {(field.options ?? []).map(optionOf).map((o) => (
          <label>
            <input type="checkbox" name={field.name} value={o.value} checked={ticked.includes(o.value)} />{" "}
            {field.mono ? <code>{o.label}</code> : o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function Field({ field, formId, state }: { field: FormField; formId: string; state: FormState }) {
  if (field.type === "checks") return <Checks field={field} state={state} />;
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
    <div class={field.wide ? "field wide" : "field"}>
      <label for={id} class={field.hiddenLabel ? "sr-only" : undefined}>
        {field.label}
      </label>
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
          minlength={field.minlength}
          maxlength={field.maxlength}
          autocomplete={field.autocomplete}
          spellcheck={field.spellcheck}
          readonly={field.readonly}
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
  /** The fields one under the other instead of in a grid (a narrow card, a row of a table). */
  stacked?: boolean;
  /** Beside the submit button (e.g. a link to the other way in). */
  beside?: Child;
  /** Inside the card, above the form (e.g. what the form is about). */
  intro?: Child;
}) {
  const state = props.state ?? {};
  const fields = props.fields?.map((f) => <Field field={f} formId={props.id} state={state} />);
  const button = (
    <button type="submit" class={props.submitClass} aria-label={props.submitLabel}>
      {props.submit}
    </button>
  );
  const form = (
    <form method="post" action={props.action} id={props.id} class={props.bare ? "inline" : undefined}>
      {fields?.length ? props.stacked ? fields : <div class="grid">{fields}</div> : null}
      {props.children}
      {props.bare ? (
        button
      ) : (
        <div class="actions">
          {button}
          {props.beside}
        </div>
      )}
    </form>
  );
  if (props.bare) return form;
  return (
    <div class="card">
      {props.title ? <h2>{props.title}</h2> : null}
      {props.intro}
      {form}
    </div>
  );
}

/** A one-button form (a table row's or an action bar's): POST `action`; `label` names the button for screen readers. */
export const ButtonForm = (props: { action: string; submit: string; label?: string; kind?: "danger" | "secondary" }) => (
  <ActionForm
    id={props.action.replace(/^\/console\//, "").replace(/[^a-z0-9]+/gi, "-")}
    bare
    action={props.action}
    submit={props.submit}
    submitClass={props.kind}
    submitLabel={props.label}
  />
);

/** The API's field messages of a VALIDATION_FAILED, by form field name. */
export function fieldErrorsOf(err: unknown): Record<string, string> | undefined {
  if (!(err instanceof ApiError) || err.code !== "VALIDATION_FAILED") return undefined;
  const fields = (err.details.fields as { path: string; message: string }[] | undefined) ?? [];
  return Object.fromEntries(fields.map((f) => [f.path.replace(/^(body|query)\./, ""), f.message]));
}

/** The posted values of `names`, trimmed (a missing one is ""; a repeated one, its last value). */
export async function postedValues(c: ConsoleContext, names: readonly string[]) {
  const form = await c.req.parseBody({ all: true });
  const last = (v: unknown) => (Array.isArray(v) ? v.at(-1) : v);
  return Object.fromEntries(names.map((k) => [k, typeof last(form[k]) === "string" ? (last(form[k]) as string).trim() : ""]));
}

/** Every posted string value of each multi-valued field in `names` (ticked checkboxes), in order. */
export async function postedLists(c: ConsoleContext, names: readonly string[]) {
  const form = await c.req.parseBody({ all: true });
  return Object.fromEntries(
    names.map((k) => [k, ([] as unknown[]).concat(form[k] ?? []).filter((v): v is string => typeof v === "string")]),
  );
}

/** The typed values without the empty ones: an API body, an empty field meaning "not given". */
export const bodyOf = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));

type AfterSuccess =
  /** Redirect (303) here, so a reload does not repeat the action. */
  | { done: string | ((c: ConsoleContext, result: unknown) => string); show?: never }
  /** Answer with this page instead: for an outcome shown once (a new secret, a test's result). */
  | { show: (c: ConsoleContext, result: unknown) => Promise<Response>; done?: never };

/**
 * POST `path` → `run(c, values, id, lists)` (`id`: the route's `:id`, when it has one) → 303 to `done`, or the page
 * `show` renders; an expected failure renders the page with the outcome, the field errors and the typed (and
 * ticked) values, under the error's status. A permission the page checks belongs in `run` (the service checks
 * it too).
 */
export function formAction(
  app: Hono<ConsoleEnv>,
  path: string,
  options: {
    fields?: readonly string[];
    /** Multi-valued fields (checkboxes): every ticked value, by name, in `run`'s `lists`. */
    lists?: readonly string[];
    run: (c: ConsoleContext, values: Record<string, string>, id: string, lists: Record<string, string[]>) => Promise<unknown>;
    render: (c: ConsoleContext, state: FormState, status: 400) => Promise<Response>;
  } & AfterSuccess,
) {
  app.post(path, async (c) => {
    const values = await postedValues(c, options.fields ?? []);
    const lists = await postedLists(c, options.lists ?? []);
    const id = c.req.param("id") ?? "";
    try {
      const result = await options.run(c, values, id, lists);
      if (options.show) return options.show(c, result);
      return c.redirect(typeof options.done === "string" ? options.done : options.done(c, result), 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      const state = { error: plainError(err), fieldErrors: fieldErrorsOf(err), values, lists };
      return options.render(c, state, statusOf(err) as 400);
    }
  });
}
