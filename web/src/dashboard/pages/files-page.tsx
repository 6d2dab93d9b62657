/** The files page: not built yet (issue 25); a placeholder so the shell runs. */
import type { DashboardRoute } from '../dashboard-route.js';
import type { PageProps } from '../page-props.js';

export function FilesPage(_props: PageProps<Extract<DashboardRoute, { page: 'files' }>>) {
  return <p class="placeholder">The files page comes next.</p>;
}
