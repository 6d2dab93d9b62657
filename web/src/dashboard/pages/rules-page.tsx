/**
 * The rules page: the current rule set with its profile (GET
 * /validation-rules), edited in a form made from the rule set's schema and
 * saved with PUT /validation-rules/current; the saved templates, restored,
 * deleted or added. After every change the page reads the rules again, so it
 * shows what the service now holds.
 */
import { useState } from 'preact/hooks';
import type { DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import type { PageProps } from '../page-props.js';
import { RuleSetForm } from '../rules/rule-set-form.js';
import { RuleTemplatesPanel } from '../rules/rule-templates-panel.js';
import '../rules/rules.css';
import type { ValidationRules } from '../rules/validation-rules.js';
import { useApiData } from '../use-api-data.js';

export function RulesPage({ api }: PageProps<Extract<DashboardRoute, { page: 'rules' }>>) {
  const rules = useApiData(() => api.get<ValidationRules>('/validation-rules'), [api]);
  const [notice, setNotice] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [loads, setLoads] = useState(0);

  const reload = (message: string) => {
    setNotice(message);
    setLoads((count) => count + 1);
    rules.reload();
  };

  return (
    <div class="rules-page">
      <h1>Rules</h1>
      {notice !== null && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {rules.state === 'loading' && <p class="checking">Reading the rule set…</p>}
      {rules.state === 'failed' && <ErrorNotice error={rules.error} what="read the rule set" />}
      {rules.state === 'loaded' && (
        <>
          <RuleTemplatesPanel api={api} templates={rules.data.templates} formDirty={dirty} onChanged={reload} />
          {/* A new form for each reading: its draft starts from what the service now holds. */}
          <RuleSetForm key={`${loads}:${JSON.stringify(rules.data.current)}`} api={api} rules={rules.data} onSaved={() => reload('The rule set was saved.')} onDirty={setDirty} />
        </>
      )}
    </div>
  );
}
