/** GET and PATCH /config, and their aliases under /settings (spec "Authentication, licence, configuration"). */
import { defineRoute, type InspectionRoute, type RouteModule } from '../../http/service-route.js';
import { settingsPatchSchema, settingsSchema } from '../inspection-settings.js';

export const settingsRoutes: RouteModule = (deps) =>
  ['/config', '/settings'].flatMap((path): InspectionRoute[] => [
    defineRoute({
      method: 'GET',
      path,
      summary: 'current application configuration',
      schemas: { response: settingsSchema },
      handle: () => deps.settings.current(),
    }),
    defineRoute({
      method: 'PATCH',
      path,
      summary: 'updates the configuration (JSON Merge Patch: null gives a setting back its default)',
      schemas: { body: settingsPatchSchema, response: settingsSchema },
      handle: ({ body }) => deps.settings.update(body),
    }),
  ]);
