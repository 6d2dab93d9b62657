/**
 * One line of `klvscope watch --statistics` per reading of the live session.
 * The rate is what the source delivered, so it reads on a raw KLV source too,
 * where the TS counts (packets, PIDs, continuity) stay at 0.
 */
import type { LiveStatistics } from '../live/live-records.js';

/** `-- receiving  9.87 Mb/s  6566 TS packets/s  5 PIDs  30 KLV packets/s  continuity errors 0  losses 0  findings 3` */
export function statisticsLine(reading: LiveStatistics): string {
  // The PIDs past those a reading names are one entry of PID -2 (pid-rate-meter.ts).
  const named = reading.pids.filter((pid) => pid.pid >= 0).length;
  const mbps = ((reading.bytesPerSecond * 8) / 1e6).toFixed(2);
  const losses = reading.losses.application + reading.losses.rtpPackets + reading.losses.socket;
  return [
    `-- ${reading.status}`,
    `${mbps} Mb/s`,
    `${Math.round(reading.packetsPerSecond)} TS packets/s`,
    `${named} PIDs${named < reading.pids.length ? ' and others' : ''}`,
    `${Math.round(reading.klvPacketsPerSecond)} KLV packets/s`,
    `continuity errors ${reading.continuityErrors}`,
    `losses ${losses}`,
    `findings ${reading.findings}`,
  ].join('  ');
}
