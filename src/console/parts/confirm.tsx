// A destructive action (delete, cancel) asks for confirmation without JavaScript: its form carries a
// required checkbox the server checks too, so a forged or hurried POST without it changes nothing and
// the page says what is missing beside the box. Use with formAction: list the box's `name` in `fields`
// and wrap the service call in `confirmed(name, run)`.
import { ApiError } from "../../http/errors";
import type { ConsoleContext } from "../context";
import { ActionForm, type FormState } from "./action-form";

/** `run` only when the posted `name` box was ticked; otherwise a VALIDATION_FAILED on that field. */
export function confirmed<R>(
  name: string,
  run: (c: ConsoleContext, values: Record<string, string>, id: string) => Promise<R>,
): (c: ConsoleContext, values: Record<string, string>, id: string) => Promise<R> {
  return async (c, values, id) => {
    if (values[name] !== "yes") {
      const message = "tick the box to confirm; nothing was changed";
      throw new ApiError("VALIDATION_FAILED", `Please confirm: ${message}.`, { fields: [{ path: name, message, code: "custom" }] });
    }
    return run(c, values, id);
  };
}

/** A card with what the action does, the confirmation box (its error beside it) and the danger button. */
export function ConfirmForm(props: {
  id: string;
  action: string;
  /** The box's field name (one per form on a page, so its error shows on the right form). */
  name: string;
  title: string;
  /** What happens, in words. */
  explain: string;
  /** The box's label, e.g. "Yes, delete this expense". */
  label: string;
  submit: string;
  state?: FormState;
}) {
  const box = `${props.id}-${props.name}`;
  const error = props.state?.fieldErrors?.[props.name];
  return (
    <ActionForm id={props.id} action={props.action} submit={props.submit} submitClass="danger" title={props.title}>
      <p class="muted">{props.explain}</p>
      <label class="check" for={box}>
        <input
          type="checkbox"
          id={box}
          name={props.name}
          value="yes"
          required
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? `${box}-error` : undefined}
        />{" "}
        {props.label}
      </label>
      {error ? (
        <p class="field-error" id={`${box}-error`}>
          {error}
        </p>
      ) : null}
    </ActionForm>
  );
}
