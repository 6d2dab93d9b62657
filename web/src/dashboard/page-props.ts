/** What every dashboard page is given: the signed-in client and a way to move to another page. */
import type { ApiClient } from './api-client.js';
import type { DashboardRoute } from './dashboard-route.js';

export interface PageProps<R extends DashboardRoute = DashboardRoute> {
  api: ApiClient;
  route: R;
  navigate: (route: DashboardRoute) => void;
}
