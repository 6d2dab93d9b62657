/** Two recordings compared by the inspection service (GET /compare?a=…&b=…; each file inspected first where it has not been). */
import type { ReportComparison } from '@klvscope/core/browser';
import type { ApiClient } from '../api-client.js';

export function loadComparison(api: ApiClient, a: string, b: string): Promise<ReportComparison> {
  return api.get<ReportComparison>('/compare', { a, b });
}
