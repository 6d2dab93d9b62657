/** Every PID's bit rate over stream time (GET /analysis/bitrate-over-time, issue 36), for the stacked plot. */
import type { PidBitrateSeries } from '@klvscope/core/browser';
import type { ApiClient } from '../api-client.js';

export interface BitrateOverTime extends PidBitrateSeries {
  path: string;
}

export function loadBitrateOverTime(api: ApiClient, filePath: string): Promise<BitrateOverTime> {
  return api.get<BitrateOverTime>('/analysis/bitrate-over-time', { filePath });
}
