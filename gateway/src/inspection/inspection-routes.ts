/** The route files of the inspection service, mounted in this order under /api/v1. */
import type { RouteModule } from './inspection-route.js';
import { authRoutes } from './routes/auth-routes.js';
import { settingsRoutes } from './routes/settings-routes.js';
import { systemRoutes } from './routes/system-routes.js';

export const INSPECTION_ROUTE_MODULES: readonly RouteModule[] = [systemRoutes, authRoutes, settingsRoutes];
