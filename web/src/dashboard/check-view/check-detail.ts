/**
 * A check's points for one file, as the REST detail endpoint gives them
 * (`GET /analysis/file/{checkId}?filePath=`, docs/rest.md): every page read,
 * 100,000 points at a time (the endpoint's largest page), so the plot has
 * them all.
 */
import type { ApiClient } from '../api-client.js';
import type { CheckDetail } from './check-detail-wire.js';

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
