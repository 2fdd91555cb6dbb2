// The finance edit pages' common parts. An edit form shows a record's current values; what it sends the
// service is only what the person changed, so an untouched field never re-runs a rule that only a change
// should (a recurrence's backdate limit, a connection's credentials reset), and an emptied optional field
// means "clear it" (null). A write checks `finance.manage` before it reads the form, as the API's guard does
// before it reads a body. A delete needs its confirmation box ticked (parts/confirm.tsx).
import type { Hono } from "hono";
import type { Child } from "hono/jsx";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { type ConsoleContext, type ConsoleEnv, shellFor } from "../context";
import { Page } from "../layout";
import { ActionForm, type FormField, type FormState, formAction, Outcome } from "../parts/action-form";
import { ConfirmForm, confirmed } from "../parts/confirm";

type Render = (c: ConsoleContext, state: FormState, status: 400) => Promise<Response>;

/** The posted values that differ from `shown` (what the form displayed): "" becomes null for `nullable` names. */
export function changedBody(
  values: Record<string, string>,
  shown: Record<string, string>,
  nullable: readonly string[] = [],
): Record<string, string | null> {
  const body: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === (shown[name] ?? "")) continue;
    body[name] = value === "" && nullable.includes(name) ? null : value;
  }
  return body;
}

/** The session of a finance write, refused first (403) without `finance.manage`. */
export function managing(c: ConsoleContext) {
  const session = c.get("console");
  requirePermission(session.principal, "finance.manage");
  return session;
}

/** A formAction `run` as a service call with the manager's deps and principal, the route's id and the form. */
export const manage =
  <R,>(call: (deps: Deps, principal: Principal, id: string, values: Record<string, string>) => Promise<R>) =>
  (c: ConsoleContext, values: Record<string, string>, id: string) => {
    const { deps, principal } = managing(c);
    return call(deps, principal, id, values);
  };

/**
 * POST `<base>/:id`: the record as the form showed it (`shown`), the changed fields as the service's body
 * (`update` parses it with the API's schema), then `done`; a refusal renders the edit page with the input.
 */
export function editAction<R>(
  app: Hono<ConsoleEnv>,
  base: string,
  options: {
    fields: readonly string[];
    nullable?: readonly string[];
    read: (deps: Deps, principal: Principal, id: string) => Promise<R>;
    shown: (record: R) => Record<string, string>;
    /** `values`: everything posted, for a field that must travel with a changed one. */
    update: (
      deps: Deps,
      principal: Principal,
      id: string,
      body: Record<string, string | null>,
      values: Record<string, string>,
    ) => Promise<unknown>;
    done: string | ((c: ConsoleContext) => string);
    render: Render;
  },
) {
  formAction(app, `${base}/:id`, {
    fields: options.fields,
    run: manage(async (deps, principal, id, values) => {
      const body = changedBody(values, options.shown(await options.read(deps, principal, id)), options.nullable);
      return options.update(deps, principal, id, body, values);
    }),
    done: options.done,
    render: options.render,
  });
}

/** POST `<base>/:id/delete`: the service's delete once the box is ticked, then `done`. */
export function deleteAction(
  app: Hono<ConsoleEnv>,
  base: string,
  remove: (deps: Deps, principal: Principal, id: string) => Promise<unknown>,
  done: string,
  render: Render,
) {
  formAction(app, `${base}/:id/delete`, {
    fields: ["confirmDelete"],
    run: confirmed("confirmDelete", manage(remove)),
    done,
    render,
  });
}

/** The delete card of an edit page (`noun`: "expense", "supplier"…), posting to `deleteAction`'s route. */
export const DeleteForm = (props: { base: string; noun: string; explain: string; state: FormState }) => (
  <ConfirmForm
    id="delete"
    action={`${props.base}/delete`}
    name="confirmDelete"
    title={`Delete this ${props.noun}`}
    explain={props.explain}
    label={`Yes, delete this ${props.noun}`}
    submit={`Delete ${props.noun}`}
    state={props.state}
  />
);

/**
 * An edit page: back to the list, the record's name and a line about it, the last outcome, then for a manager
 * the edit form (`fields`, posting to `editAction`'s route) and the page's other forms (`children`); for a reader
 * a line saying the role cannot change it.
 */
export function RecordPage(props: {
  c: ConsoleContext;
  /** The list's path, e.g. "/console/suppliers", and its name, e.g. "Suppliers". */
  list: string;
  listLabel: string;
  /** What a reader "can see" (default the list's name in lower case). */
  plural?: string;
  title: string;
  about?: Child;
  /** A line above the edit form (e.g. what cannot change). */
  note?: Child;
  base: string;
  fields: FormField[];
  state: FormState;
  children?: Child;
}) {
  const { c, state } = props;
  return (
    <Page title={`${props.listLabel}: ${props.title}`} shell={shellFor(c, props.list)}>
      <p>
        <a href={props.list}>← {props.listLabel}</a>
      </p>
      <h1>{props.title}</h1>
      {props.about ? <p class="muted">{props.about}</p> : null}
      <Outcome state={state} />
      {c.get("console").principal.permissions.has("finance.manage") ? (
        <>
          {props.note ? <p class="muted">{props.note}</p> : null}
          <ActionForm id="edit" title="Edit" action={props.base} submit="Save changes" state={state} fields={props.fields} />
          {props.children}
        </>
      ) : (
        <p class="muted">Your role can see {props.plural ?? props.listLabel.toLowerCase()} but not change them.</p>
      )}
    </Page>
  );
}
