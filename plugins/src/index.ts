/** @klvscope/plugins: the built-in checks and the CheckTester for writing more. */
export { BUILT_IN_CHECKS } from './built-in-checks.js';
export { DETAIL_ENDPOINT_IDS, type DetailEndpointId } from './detail-endpoint-ids.js';
export { MPEGTS_ERROR_POINT_TYPES } from './mpegts-error-types.js';
export { CheckTester, runCheck, type CheckRun, type CheckTesterCases, type InvalidCase, type StreamInput, type ValidCase } from './check-tester.js';
