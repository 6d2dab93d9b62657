/**
 * Messages of the points that break nothing, made once per series (a PID, a
 * table on a PID) rather than once per point: the interval and step checks
 * emit a point for every PCR, section and PES, and the value is in `value`.
 */
import { hexPid } from './mpegts-stream-time.js';

export class Labels<K> {
  private readonly labels = new Map<K, string>();

  constructor(private readonly make: (key: K) => string) {}

  get(key: K): string {
    let label = this.labels.get(key);
    if (label === undefined) {
      label = this.make(key);
      this.labels.set(key, label);
    }
    return label;
  }
}

/** Labels per PID: `new PidLabels((pid) => `PCR on PID ${pid}`)` with the PID written 0x0100. */
export class PidLabels extends Labels<number> {
  constructor(make: (pid: string) => string) {
    super((pid) => make(hexPid(pid)));
  }
}
