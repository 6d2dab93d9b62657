/**
 * The detail endpoint's answer (`GET /analysis/file/{checkId}`, docs/rest.md) as the check page
 * reads it: the shapes of gateway/src/inspection/routes/detail-routes.ts, which a browser program
 * cannot import. web/test/dashboard-check-view.test.ts holds them assignable from the gateway's,
 * so a change there fails the typecheck here.
 */

export interface DetailPoint {
  /** Stream time, seconds since the first PCR; null before it. */
  t: number | null;
  offset: number;
  packetIndex: number;
  pid: number;
  value: number | null;
  unit: string | null;
  violation: boolean;
  severity: 'info' | 'warning' | 'error';
  message: string;
  citation: string | null;
  type: string | null;
}

export interface CheckSummary {
  observations: number;
  points: number;
  violations: number;
  value: { count: number; min: number; max: number; mean: number; unit: string | null } | null;
  verdict: string;
  reason: string;
}

export interface CheckDetail {
  checkId: string;
  title: string;
  version: string;
  fileHash: string;
  path: string;
  ingestRunId: string;
  /** The rules the check ran with: where its limit comes from (an object; the gateway does not promise its shape). */
  rules: unknown;
  status: 'completed' | 'failed';
  error: { message: string } | null;
  summary: CheckSummary;
  total: number;
  points: DetailPoint[];
}
