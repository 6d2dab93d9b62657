/**
 * The rule set as a form: the profile, the shared settings, then each
 * check's rules, every field made from the rule set's schema. Saving sends
 * the draft (the set as the user gives it) with PUT /validation-rules/current;
 * a refusal is shown at the fields it names and nothing changes; a success
 * answers the new effective set, and the page reads the rules again.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.js';
import { fieldKey, ruleFieldGroups } from './rule-form-fields.js';
import { RuleFieldInput } from './rule-field-input.js';
import { problemsByField, type ProblemsByField } from './rule-problems-by-field.js';
import { valueAt, withValue, type RuleSetDraft } from './rule-set-draft.js';
import { sharedQuantityOf } from './shared-rule-quantities.js';
import type { ValidationRules } from './validation-rules.js';

export interface RuleSetFormProps {
  api: ApiClient;
  rules: ValidationRules;
  /** Called after a save, to read the rules again. */
  onSaved: () => void;
  /** Whether the form holds changes not saved yet. */
  onDirty: (dirty: boolean) => void;
}

const GROUPS = ruleFieldGroups();
const FIELD_KEYS: ReadonlySet<string> = new Set(GROUPS.flatMap((group) => group.fields.map((field) => fieldKey(field.path))));

export function RuleSetForm({ api, rules, onSaved, onDirty }: RuleSetFormProps) {
  const [draft, setDraft] = useState<RuleSetDraft>(rules.current);
  // The submit handler reads the latest draft even if a change event came in the same task.
  const draftRef = useRef(draft);
  const [problems, setProblems] = useState<ProblemsByField | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(rules.current), [draft, rules.current]);

  const change = (path: readonly string[], value: unknown) => {
    // A limit several checks keep a copy of is one limit: set (or reset) every copy.
    const paths = sharedQuantityOf(path)?.fields.map((key) => key.split('.')) ?? [path];
    const next = paths.reduce((set, each) => withValue(set, each, value), draftRef.current);
    draftRef.current = next;
    setDraft(next);
    onDirty(JSON.stringify(next) !== JSON.stringify(rules.current));
  };

  const save = async () => {
    setSaving(true);
    try {
      await api.request('PUT', '/validation-rules/current', { body: draftRef.current });
      setProblems(null);
      onDirty(false);
      onSaved();
    } catch (error) {
      setProblems(problemsByField(error, FIELD_KEYS));
    } finally {
      setSaving(false);
    }
  };

  const profile = valueAt(draft, ['profile']);
  return (
    <form
      class="rule-set-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div class="panel rule-actions">
        <label for="rule-profile">Profile</label>
        <select id="rule-profile" name="profile" value={typeof profile === 'string' ? profile : ''} onChange={(event) => change(['profile'], event.currentTarget.value === '' ? undefined : event.currentTarget.value)}>
          <option value="">default ({rules.profiles[0]})</option>
          {rules.profiles.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <span class="effective-profile">
          effective: <strong data-field="effectiveProfile">{rules.effective.profile}</strong>
        </span>
        <button type="submit" class="save" disabled={saving || !dirty}>
          Save the rule set
        </button>
        <button
          type="button"
          class="discard"
          disabled={!dirty}
          onClick={() => {
            draftRef.current = rules.current;
            setDraft(rules.current);
            setProblems(null);
            onDirty(false);
          }}
        >
          Discard changes
        </button>
        <span class="save-state" role="status">
          {dirty ? 'Changes not saved yet.' : ''}
        </span>
        {problems !== null && (
          <div class="error rule-problems" role="alert">
            The service refused the rule set{problems.byField.size > 0 ? ': see the fields marked below' : ''}.
            {problems.elsewhere.length > 0 && (
              <ul>
                {problems.elsewhere.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {GROUPS.map((group) => (
        <fieldset key={group.id} class="panel rule-group" data-group={group.id}>
          <legend>{group.id === 'shared' ? 'Shared settings' : group.id}</legend>
          {group.fields.length === 0 && <p class="rule-hint">No rule to set: the check runs unless it is among the disabled checks.</p>}
          {group.fields.map((field) => (
            <RuleFieldInput
              key={fieldKey(field.path)}
              field={field}
              given={valueAt(draft, field.path)}
              // A value the user set and just reset: its effective value was that value; the profile's comes once saved.
              effective={valueAt(rules.current, field.path) !== undefined ? undefined : valueAt(rules.effective as unknown as RuleSetDraft, field.path)}
              problems={problems?.byField.get(fieldKey(field.path))}
              onChange={(value) => change(field.path, value)}
            />
          ))}
        </fieldset>
      ))}
    </form>
  );
}
