/**
 * A check's points for one file, as the REST detail endpoint gives them
 * (`GET /analysis/file/{checkId}?filePath=`, docs/rest.md): every page read,
 * 100,000 points at a time (the endpoint's largest page), so the plot has
 * them all. The shapes mirror gateway/src/inspection/routes/detail-routes.ts.
 */
import type { ApiClient } from '../api-client.js';

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
  /** The rules the check ran with: where its limit comes from. */
  rules: Record<string, unknown>;
  status: 'completed' | 'failed';
  error: { message: string } | null;
  summary: CheckSummary;
  total: number;
  points: DetailPoint[];
}

/** The endpoint's largest page. */
const PAGE_LIMIT = 100_000;

export async function loadCheckDetail(api: ApiClient, checkId: string, filePath: string): Promise<CheckDetail> {
  const path = `/analysis/file/${encodeURIComponent(checkId)}`;
  const first = await api.get<CheckDetail>(path, { filePath, limit: PAGE_LIMIT, offset: 0 });
  const points = first.points;
  while (points.length < first.total) {
    const page = await api.get<CheckDetail>(path, { filePath, limit: PAGE_LIMIT, offset: points.length });
    if (page.points.length === 0) break;
    for (const point of page.points) points.push(point);
  }
  return { ...first, points };
}
