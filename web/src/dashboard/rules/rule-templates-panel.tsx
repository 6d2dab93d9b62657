/**
 * The saved templates: each with what it sets, restored as the current rule
 * set or deleted, both asked to be confirmed first (either replaces or loses
 * something); and the current rule set saved under a name (POST
 * /validation-rules/templates), replacing one of that name only when asked.
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.js';
import { ErrorNotice } from '../error-notice.js';
import type { ValidationRules } from './validation-rules.js';

export interface RuleTemplatesPanelProps {
  api: ApiClient;
  templates: ValidationRules['templates'];
  /** Unsaved edits are not in the current rule set: saving a template then would not hold them. */
  formDirty: boolean;
  onChanged: (notice: string) => void;
}

type Pending = { action: 'restore' | 'delete'; name: string } | null;

export function RuleTemplatesPanel({ api, templates, formDirty, onChanged }: RuleTemplatesPanelProps) {
  const [name, setName] = useState('');
  const [replace, setReplace] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [problem, setProblem] = useState<{ error: Error; what: string } | null>(null);

  const run = async (what: string, call: () => Promise<unknown>, notice: string) => {
    setProblem(null);
    try {
      await call();
      setPending(null);
      onChanged(notice);
    } catch (error) {
      setProblem({ error: error as Error, what });
    }
  };

  const confirm = async (action: NonNullable<Pending>) => {
    if (action.action === 'restore') {
      await run(`restore template '${action.name}'`, () => api.post('/validation-rules/current/restore', { name: action.name }), `Template '${action.name}' is now the current rule set.`);
    } else {
      await run(`delete template '${action.name}'`, () => api.request('DELETE', `/validation-rules/templates/${encodeURIComponent(action.name)}`), `Template '${action.name}' was deleted.`);
    }
  };

  return (
    <section class="panel rule-templates" aria-label="templates">
      <h2>Templates</h2>
      {templates.length === 0 ? (
        <p class="placeholder">No template saved yet.</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th>name</th>
              <th>what it sets</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {templates.map((template) => (
              <tr key={template.name} class="template" data-template={template.name}>
                <td>{template.name}</td>
                <td class="template-rules">
                  <code>{JSON.stringify(template.ruleSet)}</code>
                </td>
                <td class="template-actions">
                  {pending?.name === template.name ? (
                    <span class="confirm" role="alertdialog" aria-label={`confirm ${pending.action}`}>
                      {pending.action === 'restore' ? 'Replace the current rule set with this template?' : 'Delete this template for good?'}{' '}
                      <button type="button" class="confirm-yes" onClick={() => void confirm(pending)}>
                        {pending.action === 'restore' ? 'Restore' : 'Delete'}
                      </button>
                      <button type="button" class="confirm-no" onClick={() => setPending(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <>
                      <button type="button" class="restore" onClick={() => setPending({ action: 'restore', name: template.name })}>
                        Restore…
                      </button>
                      <button type="button" class="delete" onClick={() => setPending({ action: 'delete', name: template.name })}>
                        Delete…
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        class="template-save"
        onSubmit={(event) => {
          event.preventDefault();
          void run(`save template '${name}'`, () => api.post('/validation-rules/templates', { name, replace }), `The current rule set was saved as template '${name}'.`);
        }}
      >
        <label for="template-name">Save the current rule set as</label>
        <input id="template-name" name="templateName" type="text" value={name} onInput={(event) => setName(event.currentTarget.value)} />
        <label class="replace">
          <input type="checkbox" checked={replace} onChange={(event) => setReplace(event.currentTarget.checked)} /> replace a template of that name
        </label>
        <button type="submit" class="save-template" disabled={formDirty || name.trim() === ''}>
          Save template
        </button>
        {formDirty && <span class="hint">Save or discard the form's changes first: a template keeps the saved rule set.</span>}
      </form>
      {problem !== null && <ErrorNotice error={problem.error} what={problem.what} />}
    </section>
  );
}
