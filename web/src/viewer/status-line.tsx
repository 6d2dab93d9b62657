/** One line of what the module reports: viewers, bitrate, KLV rate, the source's and the recorder's state. */
import type { RecorderStatus, StreamStatusMessage } from '@klvscope/core/browser';
import { formatBitrate } from '../shared/bitrate-format.js';
import type { StreamInfo } from './viewer-api.js';

export interface StatusLineProps {
  info: StreamInfo | null;
  status: StreamStatusMessage | null;
  recorder: RecorderStatus | null;
}

export function StatusLine({ info, status, recorder }: StatusLineProps) {
  const viewers = status ?? info;
  const source = status?.source ?? info?.source ?? null;
  const mission = status?.missionName ?? info?.missionName ?? '';
  return (
    <p class="status-line">
      <span data-field="viewers">
        viewers {viewers ? `${viewers.activeConnections}/${viewers.concurrentClients}` : '—'}
      </span>
      <span data-field="bitrate">{status ? formatBitrate(status.bitrateBps) : '—'}</span>
      <span data-field="klvRate">KLV {status ? `${status.klvRateHz.toFixed(1)} Hz` : '—'}</span>
      <span data-field="source" class={`source-${source?.state ?? 'unknown'}`}>
        source {source ? source.state : '—'}
        {source?.message ? `: ${source.message}` : ''}
      </span>
      <span data-field="recorder">recorder {recorder ? recorderText(recorder) : '—'}</span>
      {mission !== '' && <span data-field="mission">mission {mission}</span>}
      {info?.demo && <span class="badge">{info.demoExpired ? 'demo expired' : 'demo'}</span>}
    </p>
  );
}

export function recorderText(recorder: RecorderStatus): string {
  if (recorder.state === 'running') return `running since ${recorder.timeStarted}${recorder.file ? ` (${recorder.file})` : ''}`;
  if (recorder.state === 'failed') return `failed${recorder.reason ? `: ${recorder.reason}` : ''}`;
  return recorder.state;
}
