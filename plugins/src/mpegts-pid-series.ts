/**
 * The series of the points that break nothing, made once per PID rather than
 * once per point: the interval and step checks emit such a point for every
 * PCR, section and PES (`ctx.measure`), and only its position and value
 * change. Kept in an array indexed by PID, which is looked up for every point
 * (a Map costs a hash lookup each).
 */
import { PID_COUNT, type PointSeries } from '@klvscope/core';
import { hexPid } from './mpegts-stream-time.js';

/** What every series of a check shares: all but the message, which names the PID. */
interface SeriesFields {
  readonly unit: string | null;
  readonly citation: string;
  readonly type: string;
}

export class PidSeries {
  private readonly series: (PointSeries | undefined)[] = new Array<PointSeries | undefined>(PID_COUNT).fill(undefined);

  /** `message` gets the PID as its text (0x0100) and as a number. */
  constructor(
    private readonly message: (pidText: string, pid: number) => string,
    private readonly fields: SeriesFields,
  ) {}

  get(pid: number): PointSeries {
    const slot = pid & 0x1fff;
    return (this.series[slot] ??= { ...this.fields, message: this.message(hexPid(slot), slot) });
  }
}
