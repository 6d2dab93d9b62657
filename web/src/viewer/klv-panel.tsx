/**
 * The key ST 0601 values of the metadata packet that belongs to the frame on
 * screen (the page picks it: klv-frame-buffer.ts). Each value cell has a
 * data-field attribute naming its FrameKlvValues field, for the tests.
 */
import type { FrameKlvValues, StreamKlvMessage } from '@klvscope/core/browser';
import './klv-panel.css';
import { formatDegrees, formatMetres, formatText, formatTimestampMicros } from './klv-value-format.js';

export interface KlvPanelProps {
  klv: StreamKlvMessage | null;
  /** A synchronous packet of this very frame (else the latest before it). */
  exact: boolean;
  framePts90kHz: number | null;
}

/** ST 0601's mandatory items (ST 0601.19 6.2), by tag, as the panel names a missing one. */
const MANDATORY_NAMES = new Map([
  [1, 'Checksum'],
  [2, 'Precision Time Stamp'],
  [65, 'UAS Datalink LS Version Number'],
]);

type Row = [label: string, field: keyof FrameKlvValues, text: (values: FrameKlvValues) => string];

const ROWS: Row[] = [
  ['Time stamp (UTC)', 'timestampMicros', (v) => formatTimestampMicros(v.timestampMicros)],
  ['Platform latitude', 'sensorLatitudeDeg', (v) => formatDegrees(v.sensorLatitudeDeg)],
  ['Platform longitude', 'sensorLongitudeDeg', (v) => formatDegrees(v.sensorLongitudeDeg)],
  ['Platform altitude', 'sensorAltitudeM', (v) => formatMetres(v.sensorAltitudeM)],
  ['Heading', 'platformHeadingDeg', (v) => formatDegrees(v.platformHeadingDeg, 2)],
  ['Pitch', 'platformPitchDeg', (v) => formatDegrees(v.platformPitchDeg, 2)],
  ['Roll', 'platformRollDeg', (v) => formatDegrees(v.platformRollDeg, 2)],
  ['Sensor azimuth', 'sensorAzimuthDeg', (v) => formatDegrees(v.sensorAzimuthDeg, 2)],
  ['Sensor elevation', 'sensorElevationDeg', (v) => formatDegrees(v.sensorElevationDeg, 2)],
  ['Sensor roll', 'sensorRollDeg', (v) => formatDegrees(v.sensorRollDeg, 2)],
  ['Horizontal FOV', 'sensorHorizontalFovDeg', (v) => formatDegrees(v.sensorHorizontalFovDeg, 2)],
  ['Vertical FOV', 'sensorVerticalFovDeg', (v) => formatDegrees(v.sensorVerticalFovDeg, 2)],
  ['Slant range', 'slantRangeM', (v) => formatMetres(v.slantRangeM)],
  ['Frame centre latitude', 'frameCenterLatitudeDeg', (v) => formatDegrees(v.frameCenterLatitudeDeg)],
  ['Frame centre longitude', 'frameCenterLongitudeDeg', (v) => formatDegrees(v.frameCenterLongitudeDeg)],
  ['Frame centre elevation', 'frameCenterElevationM', (v) => formatMetres(v.frameCenterElevationM)],
  ['Mission', 'missionId', (v) => formatText(v.missionId)],
];

export function KlvPanel({ klv, exact, framePts90kHz }: KlvPanelProps) {
  return (
    <section class="klv-panel">
      <h2>Metadata of the frame on screen</h2>
      {klv === null ? (
        <p class="klv-empty">{framePts90kHz === null ? 'No frame shown yet.' : 'No metadata packet for this frame.'}</p>
      ) : (
        <>
          <p class="klv-source">
            {klv.standard}, PID {klv.pid}, {klv.carriage === 'sync' ? 'synchronous' : 'asynchronous'}
            {klv.pts90kHz !== null ? `, PTS ${klv.pts90kHz}` : ', no PTS'}
            {klv.carriage === 'sync' && !exact ? ' (no packet for this frame: the latest before it)' : ''}
            {klv.checksumValid === false ? ', checksum invalid' : ''}
          </p>
          {klv.standard === 'MISB ST 0601' && klv.missingMandatoryTags !== undefined && (
            <p class={klv.missingMandatoryTags.length > 0 ? 'klv-mandatory klv-mandatory-missing' : 'klv-mandatory'} data-field="mandatory">
              {klv.missingMandatoryTags.length > 0
                ? `Missing mandatory items: ${klv.missingMandatoryTags.map((tag) => `${MANDATORY_NAMES.get(tag) ?? 'item'} (tag ${tag})`).join(', ')}`
                : `Mandatory items (tags ${[...MANDATORY_NAMES.keys()].join(', ')}) all present`}
            </p>
          )}
          <table>
            <tbody>
              {ROWS.map(([label, field, text]) => (
                <tr key={field}>
                  <th>{label}</th>
                  <td data-field={field}>{text(klv.values)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {framePts90kHz !== null && <p class="klv-frame">Frame PTS {framePts90kHz}</p>}
    </section>
  );
}
