/**
 * One rule's input, made from its schema field: a number box, a tick box, a
 * choice, tick boxes for a list of known names, a comma-separated list, or
 * JSON for anything else. It shows the draft's value when the user set one,
 * else the effective value (the profile's or the check's default) in grey;
 * "reset" takes the user's value out again. What is typed goes to the
 * service as typed: the service judges it, and its problem is shown here.
 * A text box reports each keystroke (`input`, not `change`, which waits for
 * the field to lose focus) so Save is enabled while typing, and keeps its
 * own text while that text still means the form's value ("1." is 1).
 */
import { useState } from 'preact/hooks';
import type { RuleField } from './rule-form-fields.js';
import { fieldKey } from './rule-form-fields.js';
import { sharedQuantityOf } from './shared-rule-quantities.js';

export interface RuleFieldInputProps {
  field: RuleField;
  /** The user's value, undefined when the field follows the profile. */
  given: unknown;
  /** The service's effective value; undefined when not known until the form is saved. */
  effective: unknown;
  problems: string[] | undefined;
  onChange: (value: unknown) => void;
}

export function RuleFieldInput({ field, given, effective, problems, onChange }: RuleFieldInputProps) {
  const key = fieldKey(field.path);
  const id = `rule-${key}`;
  const set = given !== undefined;
  const shown = set ? given : effective;
  const problemId = `${id}-problem`;
  const [typed, setTyped] = useState<string | null>(null);
  const shared = sharedQuantityOf(field.path);
  const common = {
    id,
    name: key,
    'aria-invalid': problems !== undefined,
    'aria-describedby': problems !== undefined ? problemId : undefined,
  };
  return (
    <div class={`rule-field${set ? ' given' : ''}${problems !== undefined ? ' invalid' : ''}`} data-field={key}>
      <label for={id}>{field.name}</label>
      <div class="rule-input">
        {field.kind === 'boolean' ? (
          <input {...common} type="checkbox" checked={shown === true} onChange={(event) => onChange(event.currentTarget.checked)} />
        ) : field.kind === 'choice' ? (
          <select {...common} value={String(shown)} onChange={(event) => onChange(event.currentTarget.value)}>
            {field.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : field.kind === 'choices' ? (
          <fieldset {...common} class="choices">
            {field.options.map((option) => (
              <label key={option} class="choice">
                <input
                  type="checkbox"
                  value={option}
                  checked={Array.isArray(shown) && shown.includes(option)}
                  onChange={(event) => {
                    const list = Array.isArray(shown) ? (shown as string[]).filter((item) => item !== option) : [];
                    onChange(event.currentTarget.checked ? [...list, option] : list);
                  }}
                />
                {option}
              </label>
            ))}
          </fieldset>
        ) : (
          <input
            {...common}
            type="text"
            inputMode={field.kind === 'number' || field.kind === 'integer' ? 'decimal' : undefined}
            spellcheck={false}
            value={typed !== null && sameValue(parseText(field, typed), shown) ? typed : textOf(field, shown)}
            placeholder={shown === undefined ? "the profile's, once saved" : field.nullable ? 'none' : undefined}
            onInput={(event) => {
              setTyped(event.currentTarget.value);
              onChange(parseText(field, event.currentTarget.value));
            }}
          />
        )}
        {set && (
          <button type="button" class="reset" title="use the profile's value again" onClick={() => onChange(undefined)}>
            reset
          </button>
        )}
      </div>
      <p class="rule-hint">
        {field.description}
        {field.bounds !== null && <span class="bounds"> ({field.bounds})</span>}
      </p>
      {shared !== null && (
        <p class="rule-hint shared-quantity" data-shared-with={shared.fields.filter((other) => other !== key).join(' ')}>
          One limit on {shared.quantity}: set together with {shared.fields.filter((other) => other !== key).join(', ')}.
        </p>
      )}
      {problems !== undefined && (
        <p id={problemId} class="error field-error" role="alert">
          {problems.join('; ')}
        </p>
      )}
    </div>
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function textOf(field: RuleField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'list' && Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The typed text as the value to send. A number that does not read as one is
 * sent as the text, so the service's own problem ("expected a number, got
 * "abc"") names it. Empty: null where the rule allows it, else the field
 * follows the profile again.
 */
function parseText(field: RuleField, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return field.nullable ? null : undefined;
  if (field.kind === 'number' || field.kind === 'integer') return toNumber(trimmed);
  if (field.kind === 'list') {
    const items = trimmed.split(/[\s,]+/).filter((item) => item !== '');
    return field.numericItems ? items.map(toNumber) : items;
  }
  if (field.kind === 'json') {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return trimmed;
    }
  }
  return trimmed;
}

function toNumber(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}
