/** The report page: not built yet (issue 25); a placeholder so the shell runs. */
import type { DashboardRoute } from '../dashboard-route.js';
import type { PageProps } from '../page-props.js';

export function ReportPage(_props: PageProps<Extract<DashboardRoute, { page: 'report' }>>) {
  return <p class="placeholder">The report page comes next.</p>;
}
