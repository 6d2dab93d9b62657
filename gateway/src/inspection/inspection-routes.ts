/** The route files of the inspection service, mounted in this order under /api/v1. */
import type { RouteModule } from '../http/service-route.js';
import { analysisRoutes } from './routes/analysis-routes.js';
import { archiveRoutes } from './routes/archive-routes.js';
import { bitrateOverTimeRoutes } from './routes/bitrate-over-time-routes.js';
import { compareRoutes } from './routes/compare-routes.js';
import { authRoutes } from './routes/auth-routes.js';
import { automationRoutes } from './routes/automation-routes.js';
import { datasetRoutes } from './routes/dataset-routes.js';
import { flightTrackRoutes } from './routes/flight-track-routes.js';
import { detailRoutes } from './routes/detail-routes.js';
import { fileBrowseRoutes } from './routes/file-browse-routes.js';
import { jobRoutes } from './routes/job-routes.js';
import { licenceRoutes } from './routes/licence-routes.js';
import { openApiRoutes } from './routes/openapi-routes.js';
import { playbackRoutes } from './routes/playback-routes.js';
import { recentSourcesRoutes } from './routes/recent-sources-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { settingsRoutes } from './routes/settings-routes.js';
import { systemRoutes } from './routes/system-routes.js';
import { validationRulesRoutes } from './routes/validation-rules-routes.js';
import { fleetRoutes } from './routes/fleet-routes.js';
import { probeRoutes } from './routes/probe-routes.js';

export const INSPECTION_ROUTE_MODULES: readonly RouteModule[] = [systemRoutes, authRoutes, licenceRoutes, settingsRoutes, validationRulesRoutes, fileBrowseRoutes, recentSourcesRoutes, sessionRoutes, playbackRoutes, analysisRoutes, bitrateOverTimeRoutes, jobRoutes, detailRoutes, archiveRoutes, compareRoutes, automationRoutes, fleetRoutes, probeRoutes, datasetRoutes, flightTrackRoutes, openApiRoutes];
