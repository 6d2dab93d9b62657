/** The check page: not built yet (issue 25); a placeholder so the shell runs. */
import type { DashboardRoute } from '../dashboard-route.js';
import type { PageProps } from '../page-props.js';

export function CheckPage(_props: PageProps<Extract<DashboardRoute, { page: 'check' }>>) {
  return <p class="placeholder">The check page comes next.</p>;
}
