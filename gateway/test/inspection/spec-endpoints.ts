/**
 * Every endpoint of ../shared/spec/inspection-service.md (method and path
 * under /api/v1), pinned here so a fresh clone without ../shared still
 * checks that the service serves them all; spec-endpoints.test.ts also
 * checks this list against the spec's tables when the spec is there. The
 * detail-endpoint ids and dataset names are pinned by their own packages'
 * tests (plugins' built-in-checks meta-test, core's raw-datasets test).
 */
import { RAW_DATASET_NAMES } from '@klvscope/core/store';
import { DETAIL_ENDPOINT_IDS } from '@klvscope/plugins';

export const SPEC_ENDPOINTS: readonly string[] = [
  'GET /health',
  'GET /version',
  'GET /openapi.json',
  'GET /playback/{token}',
  'GET /auth/status',
  'GET /license',
  'POST /license/import',
  'GET /config/nodeinfo',
  'GET /config/license',
  'POST /config/license',
  'DELETE /config/license',
  'GET /config',
  'PATCH /config',
  'GET /settings',
  'PATCH /settings',
  'GET /validation-rules',
  'PUT /validation-rules/current',
  'POST /validation-rules/templates',
  'POST /validation-rules/current/restore',
  'DELETE /validation-rules/templates/{name}',
  'GET /system/file-browse/roots',
  'POST /system/file-browse/entries',
  'POST /system/file-check',
  'GET /sources/recent',
  'DELETE /sources/{id}',
  'POST /analysis/file',
  'POST /analysis/file/jobs',
  'GET /analysis/file/jobs/{id}',
  'POST /ingest/file/jobs',
  'GET /ingest/file/jobs/{id}',
  'DELETE /ingest/file/jobs/{id}',
  'POST /process/file/jobs',
  'GET /process/file/jobs/{id}',
  ...DETAIL_ENDPOINT_IDS.map((suffix) => `GET /analysis/file/${suffix}`),
  'GET /analysis/archive',
  'POST /analysis/archive/lookup',
  'GET /analysis/archive/{hash}',
  'DELETE /analysis/archive',
  'POST /automation/file-session',
  'POST /automation/file-session/inspect',
  'POST /automation/files/lookup',
  'GET /automation/files/{hash}/stages/{stage}',
  'GET /automation/files/{hash}/ingest-runs',
  'GET /automation/files/{hash}/ingest-runs/latest',
  'GET /automation/ingest-runs/{id}',
  ...RAW_DATASET_NAMES.map((suffix) => `GET /automation/ingest-runs/{id}/${suffix}`),
  'POST /sessions/file',
  'POST /sessions/live',
  'GET /sessions/active',
  'DELETE /sessions/active',
  'POST /sessions/active/stage/complete',
  'GET /sessions/{id}',
  'GET /sessions/{id}/metadata',
  'GET /sessions/{id}/findings',
];

/**
 * The endpoints of the spec's tables: rows `| METHOD | \`/api/v1/...\` | ... |`,
 * and the suffix tables of sections headed "(all GET under `/api/v1/...`)".
 */
export function endpointsOfSpec(markdown: string): string[] {
  const endpoints: string[] = [];
  let suffixBase: string | null = null;
  for (const line of markdown.split('\n')) {
    const heading = /^#+ .*\(all (GET) under `\/api\/v1(\/[^`]*)`\)/.exec(line);
    if (heading) {
      suffixBase = `${heading[1]} ${heading[2].replace(/\/$/, '')}`;
      continue;
    }
    if (line.startsWith('#')) suffixBase = null;
    const row = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`\/api\/v1([^`]+)`\s*\|/.exec(line);
    if (row) {
      endpoints.push(`${row[1]} ${row[2]}`);
      continue;
    }
    const suffix = /^\|\s*`([a-z0-9/-]+)`\s*\|/.exec(line);
    if (suffix && suffixBase !== null) endpoints.push(`${suffixBase}/${suffix[1]}`);
  }
  return endpoints;
}
