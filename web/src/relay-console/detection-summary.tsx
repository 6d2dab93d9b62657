/** A channel's latest stream detection (GET /api/streamDetectionInfo): what the stream carries, in one cell. */
import { formatBitrate } from '../shared/bitrate-format.js';
import type { StreamDetection } from './relay-api.js';

export function DetectionSummary({ detection }: { detection: StreamDetection | undefined }) {
  if (detection === undefined) return <span class="muted">not detected</span>;
  const transportErrors = Object.values(detection.errors).reduce((sum, n) => sum + n, 0);
  const klvErrors = Object.values(detection.klvErrors).reduce((sum, n) => sum + n, 0);
  return (
    <div class="detection" data-field="detection" data-time={detection.time}>
      <div class="detection-head">
        <time dateTime={detection.time}>{clockTime(detection.time)}</time>, {(detection.durationMs / 1000).toFixed(1)} s, <span data-field="detection-bitrate">{formatBitrate(detection.bitrate)}</span>
      </div>
      {detection.problem !== null ? (
        <div class="problem" data-field="detection-problem">
          {detection.problem}
        </div>
      ) : (
        <ul>
          <li data-field="detection-programs">
            {detection.programs.length} program{detection.programs.length === 1 ? '' : 's'}, {detection.pids.length} PIDs
          </li>
          <li data-field="detection-video">{detection.video === null ? 'no video' : `${detection.video.codec}${detection.video.resolution === null ? '' : ` ${detection.video.resolution}`} (PID ${detection.video.pid})`}</li>
          {detection.klv.map((klv) => (
            <li key={klv.pid} data-field="detection-klv">
              {`KLV PID ${klv.pid}: ${klv.standards.join(', ') || 'unknown'}, ${klv.carriage}, ${klv.rateHz.toFixed(1)} Hz`}
            </li>
          ))}
          {(transportErrors > 0 || klvErrors > 0) && <li class="warning" data-field="detection-errors">{`${transportErrors} transport errors, ${klvErrors} KLV errors`}</li>}
        </ul>
      )}
    </div>
  );
}

/** `14:03:27`, local time. */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour12: false });
}
