/**
 * The values the telemetry charts draw, one row per metadata packet that
 * had a PTS, on the viewer's time line (seconds from the connection's first
 * frame, as the frame clock counts them): platform altitude, heading, slant
 * range, sensor azimuth and elevation. Packets without a PTS have no place
 * on that line and are left out. Columns as uPlot takes them; the oldest rows
 * go past a cap.
 */
import type { FrameKlvValues } from '@klvscope/core/browser';

/** About 3 minutes of 30 Hz metadata: the charts show the recent flight, the map the whole. */
const MAX_ROWS = 6_000;

export const TELEMETRY_FIELDS = ['sensorAltitudeM', 'platformHeadingDeg', 'slantRangeM', 'sensorAzimuthDeg', 'sensorElevationDeg'] as const;
export type TelemetryField = (typeof TELEMETRY_FIELDS)[number];

export class TelemetryLog {
  readonly timesS: number[] = [];
  readonly values: Record<TelemetryField, Array<number | null>> = {
    sensorAltitudeM: [],
    platformHeadingDeg: [],
    slantRangeM: [],
    sensorAzimuthDeg: [],
    sensorElevationDeg: [],
  };

  /** A packet at `timeS`; packets come in PTS order but for the muxer's reordering, which is put right here. */
  add(timeS: number, packet: FrameKlvValues): void {
    let at = this.timesS.length;
    while (at > 0 && this.timesS[at - 1] > timeS) at--;
    this.timesS.splice(at, 0, timeS);
    for (const field of TELEMETRY_FIELDS) this.values[field].splice(at, 0, packet[field] ?? null);
    if (this.timesS.length > MAX_ROWS) {
      this.timesS.shift();
      for (const field of TELEMETRY_FIELDS) this.values[field].shift();
    }
  }

  clear(): void {
    this.timesS.length = 0;
    for (const field of TELEMETRY_FIELDS) this.values[field].length = 0;
  }
}
