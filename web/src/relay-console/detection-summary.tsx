/** A channel's latest stream detection (GET /api/streamDetectionInfo): what the stream carries, in one cell. */
import { formatBitrate } from '../shared/bitrate-format.js';
import type { StreamDetection } from './relay-api.js';

export function DetectionSummary({ detection }: { detection: StreamDetection | undefined }) {
  if (detection === undefined) return <span class="muted">not detected</span>;
  const klvByPid = new Map(detection.klv.map((klv) => [klv.pid, klv]));
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
          {detection.video === null && <li data-field="detection-video">no video</li>}
          {detection.streams.map((stream) => {
            const klv = klvByPid.get(stream.pid);
            if (stream.kind === 'video' && detection.video?.pid === stream.pid) {
              return <li key={stream.pid} data-field="detection-video">{`${detection.video.codec}${detection.video.resolution === null ? '' : ` ${detection.video.resolution}`} (PID ${detection.video.pid})`}</li>;
            }
            if (klv !== undefined) {
              return <li key={stream.pid} data-field="detection-klv">{`KLV PID ${klv.pid}: ${klv.standards.join(', ') || 'unknown'}, ${klv.carriage}, ${klv.rateHz.toFixed(1)} Hz`}</li>;
            }
            return <li key={stream.pid} data-field={`detection-${stream.kind}`}>{`${stream.codec} (PID ${stream.pid})`}</li>;
          })}
          {/* By type and severity, as inspect counts them: a legacy set's warnings are not errors. */}
          {detection.problems.map((problem) => (
            <li key={`${problem.source} ${problem.type} ${problem.severity}`} class={`finding-${problem.severity}`} data-field="detection-problems">
              {`${problem.count} ${problem.type} (${problem.severity})`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** `14:03:27`, local time. */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB', { hour12: false });
}
