/** The live page: not built yet (issue 25); a placeholder so the shell runs. */
import type { DashboardRoute } from '../dashboard-route.js';
import type { PageProps } from '../page-props.js';

export function LivePage(_props: PageProps<Extract<DashboardRoute, { page: 'live' }>>) {
  return <p class="placeholder">The live page comes next.</p>;
}
