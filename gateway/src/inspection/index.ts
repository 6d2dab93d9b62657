/** The inspection service's public entry (spec/inspection-service.md). */
export { createInspectionServer, startInspectionServer, inspectionRoutesOf, DEFAULT_BODY_LIMIT_BYTES, type InspectionServerOptions, type InspectionListenOptions, type RunningInspectionServer, type ServiceLogLevel } from './inspection-server.js';
export { InspectionError, type InspectionErrorCode } from './inspection-error.js';
export { ERROR_STATUS, statusOfCode, type ErrorStatus } from '../http/error-status.js';
export { errorBody, errorResponse, type ErrorBody, type ErrorResponse } from '../http/error-response.js';
export { defineRoute, type InspectionRoute, type RouteInput, type RouteMethod, type RouteModule, type RouteSchemas } from '../http/service-route.js';
export { API_PREFIX, DEFAULT_PORT, LIVE_CHANNEL_PATH, PORT_ENV } from './service-address.js';
export { type InspectionDeps, type ApiKeyInfo } from './inspection-deps.js';
export { InspectionSettings, settingsSchema, settingsPatchSchema, defaultSettings, type Settings } from './inspection-settings.js';
export { API_KEY_ENV, API_KEY_FILE_NAME, type ApiKeySource } from '../http/api-key.js';
export { isLoopbackHost, DEFAULT_HOST } from '../http/loopback-host.js';
export { invalidFields, type FieldProblem } from '../http/request-validation.js';
