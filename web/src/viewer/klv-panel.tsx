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
