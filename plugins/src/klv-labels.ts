/** How the KLV checks name what they talk about in point messages and summary reasons. */
import { hexPid } from './mpegts-stream-time.js';

/** 'KLV PID 0x0102', or 'raw KLV' for a raw KLV byte stream (pid -1). */
export function klvPidLabel(pid: number): string {
  return pid < 0 ? 'raw KLV' : `KLV PID ${hexPid(pid)}`;
}

/** 'KLV PID 0x0102 packet 7' (the packet's klvIndex on its PID), or just the PID when the packet could not be framed. */
export function klvPacketLabel(pid: number, klvIndex: number | null): string {
  return klvIndex === null ? klvPidLabel(pid) : `${klvPidLabel(pid)} packet ${klvIndex}`;
}

/** A time stamp in µs since 1970-01-01T00:00:00Z (ST 0601 item 2, MISB ST 0603) as ISO 8601 with µs. */
export function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return `${micros} µs`;
  const iso = date.toISOString();
  const subMs = String(Math.round(micros - ms * 1000)).padStart(3, '0');
  return `${iso.slice(0, -1)}${subMs}Z`;
}

/** A signed millisecond amount with its sign and three decimals: '+33.333 ms'. */
export function signedMs(ms: number): string {
  return `${ms >= 0 ? '+' : '-'}${Math.abs(ms).toFixed(3)} ms`;
}

/** The citation of a metadata packet's time stamp, by the standard of its key. */
export function timestampCitation(standard: string): string {
  if (standard === 'MISB EG 0104') return 'MISB EG 0104 (User Defined Time Stamp)';
  if (standard === 'MISB ST 0903') return 'MISB ST 0903 item 2 (Precision Time Stamp); MISB ST 0603';
  return 'MISB ST 0601 item 2 (Precision Time Stamp); MISB ST 0603';
}

/** '1 KLV packet', '300 KLV packets'. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
