/** The rules page: not built yet (issue 25); a placeholder so the shell runs. */
import type { DashboardRoute } from '../dashboard-route.js';
import type { PageProps } from '../page-props.js';

export function RulesPage(_props: PageProps<Extract<DashboardRoute, { page: 'rules' }>>) {
  return <p class="placeholder">The rules page comes next.</p>;
}
