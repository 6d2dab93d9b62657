/** A PID as the report writes it: hexadecimal as the standards do, decimal as tools print it (`0x0100 (256)`); a dash for none (-1). */
export function pidLabel(pid: number): string {
  return pid < 0 ? '—' : `0x${pid.toString(16).toUpperCase().padStart(4, '0')} (${pid})`;
}
