/**
 * Messages of the points that break nothing, made once per PID rather than
 * once per point: the interval and step checks emit a point for every PCR,
 * section and PES, and the value is in `value`. Kept in an array indexed by
 * PID, which is looked up for every point (a Map costs a hash lookup each).
 */
import { hexPid, PID_COUNT } from './mpegts-stream-time.js';

export class PidLabels {
  private readonly labels: (string | undefined)[] = new Array<string | undefined>(PID_COUNT).fill(undefined);

  /** `make` gets the PID as a number and its text (0x0100). */
  constructor(private readonly make: (pidText: string, pid: number) => string) {}

  get(pid: number): string {
    const slot = pid & 0x1fff;
    return (this.labels[slot] ??= this.make(hexPid(slot), slot));
  }
}
