/**
 * The report's video details (`report.video`, one row per video PID): what
 * a video analyser shows first — codec, profile and level, size, frame
 * rate, the count of each picture type and the GOP structure.
 */
import type { VideoStreamDetails } from '@klvscope/core/browser';
import { useRef } from 'preact/hooks';
import { formatQuantity } from '../../shared/quantity-format.js';
import { CsvExportButton } from './csv-export-button.js';
import { rowsOfTable } from './csv-text.js';
import { pidLabel } from './pid-label.js';

/** "Main, level 3.1 (Main tier)"; MPEG-2 names its level ("Main profile, Main level"). */
export function profileAndLevelText(video: VideoStreamDetails): string {
  if (video.profile === null) return '—';
  if (video.codec === 'MPEG-2') return video.level === null ? `${video.profile} profile` : `${video.profile} profile, ${video.level} level`;
  const level = video.level === null ? '' : `, level ${video.level}`;
  const tier = video.tier === null ? '' : ` (${video.tier} tier)`;
  return `${video.profile}${level}${tier}`;
}

/** "25 fps declared, 25 fps measured", or whichever of the two is known. */
export function frameRateText(video: VideoStreamDetails): string {
  const declared = video.frameRate === null ? null : `${formatQuantity(video.frameRate)} fps declared`;
  const measured = video.measuredFrameRate === null ? null : `${formatQuantity(video.measuredFrameRate)} fps measured`;
  return [declared, measured].filter((part) => part !== null).join(', ') || '—';
}

/** "12 (10 to 12), open"; a single group has no length to give. */
export function gopText(video: VideoStreamDetails): string {
  const { gop } = video;
  if (video.pictures === 0) return 'no picture header could be read';
  if (gop.count === 0) return 'no I picture';
  const length =
    gop.typicalLength === null
      ? `one group of ${video.pictures} pictures`
      : gop.minLength === gop.maxLength
        ? `${gop.typicalLength} pictures`
        : `${gop.typicalLength} pictures (${gop.minLength} to ${gop.maxLength})`;
  return gop.kind === null ? length : `${length}, ${gop.kind}`;
}

export function VideoDetailsPanel({ video, filePath }: { video: readonly VideoStreamDetails[] | undefined; filePath: string }) {
  const table = useRef<HTMLTableElement>(null);
  const shown = video !== undefined && video.length > 0;
  return (
    <section class="panel video-details">
      <h2>Video details {shown && <CsvExportButton filePath={filePath} table="video" rows={() => rowsOfTable(table.current!)} />}</h2>
      {!shown ? (
        <p class="empty">No H.264, H.265 or MPEG-2 video stream{video === undefined ? ' (this report predates video details: inspect the file again)' : ''}.</p>
      ) : (
        <table class="data video-streams" ref={table}>
          <thead>
            <tr>
              <th>PID</th>
              <th>Codec</th>
              <th>Profile and level</th>
              <th>Size</th>
              <th>Frame rate</th>
              <th class="number">Pictures</th>
              <th class="number">I</th>
              <th class="number">P</th>
              <th class="number">B</th>
              <th>GOP</th>
              <th>Pattern (display order)</th>
            </tr>
          </thead>
          <tbody>
            {video.map((stream) => (
              <tr class="video-stream" data-pid={stream.pid}>
                <td>{pidLabel(stream.pid)}</td>
                <td class="codec">{stream.codec}</td>
                <td class="profile-level">{profileAndLevelText(stream)}</td>
                <td class="size">
                  {stream.width === null ? '—' : `${stream.width}×${stream.height}`}
                  {stream.chromaFormat !== null && <span class="chroma"> {stream.chromaFormat}</span>}
                </td>
                <td class="frame-rate">{frameRateText(stream)}</td>
                <td class="number pictures">{formatQuantity(stream.pictures)}</td>
                <td class="number frames-i">{formatQuantity(stream.frameTypes.I)}</td>
                <td class="number frames-p">{formatQuantity(stream.frameTypes.P)}</td>
                <td class="number frames-b">{formatQuantity(stream.frameTypes.B)}</td>
                <td class="gop">{gopText(stream)}</td>
                <td class="gop-pattern">
                  <code>{stream.gop.pattern ?? '—'}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
