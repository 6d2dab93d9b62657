/**
 * The dashboard (web/dist/dashboard) at `/` of the inspection service. Its
 * files are public: the page holds no data until the user signs in with the
 * API key, and then it calls the same /api/v1 endpoints as any script, with
 * the X-API-Key header. Only single-segment paths are the dashboard's, so
 * nothing under /api/v1 is shadowed.
 */
import type { FastifyInstance } from 'fastify';
import type { StaticFiles } from '../http/static-files.js';
import { installWebAppPages } from '../http/web-app-files.js';
import { InspectionError } from './inspection-error.js';

export function installDashboardPages(app: FastifyInstance, files: StaticFiles | null): void {
  installWebAppPages(app, files, () => new InspectionError('ERR_DASHBOARD_NOT_BUILT', "the dashboard is not built: run 'npm run build' (it makes web/dist/dashboard)"));
}

/** The address a user opens to sign in: the key in the fragment, which a browser never sends to a server. */
export function dashboardSignInUrl(serviceOrigin: string, apiKey: string): string {
  return `${serviceOrigin}/#key=${encodeURIComponent(apiKey)}`;
}
