/**
 * A PID as the live page writes it (`0x0100`, as in the statistics), and the
 * two values that are no PID: -1, a finding about the source itself, and -2,
 * the record of the kinds past the service's limit a second (OTHER_PIDS of
 * gateway/src/live/finding-coalescer.ts).
 */
export const OTHER_PIDS = -2;

export const OTHER_PIDS_LABEL = 'findings on PIDs past the 128 kinds the service follows one by one in a second';

export function pidLabel(pid: number): string {
  if (pid === OTHER_PIDS) return 'others';
  return pid < 0 ? '—' : `0x${pid.toString(16).padStart(4, '0')}`;
}
