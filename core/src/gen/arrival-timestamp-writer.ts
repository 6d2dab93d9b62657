/**
 * The 4-byte prefix of a 192-byte M2TS packet (BDAV MPEG-2 transport stream,
 * the TP_extra_header of IEC 61883-4 source packets): 2 bits of
 * copy_permission_indicator (0 here) and a 30-bit arrival_time_stamp, the
 * 27 MHz arrival time of the packet's first byte modulo 2^30.
 */

const ATS_MODULUS = 2 ** 30;

export function writeArrivalTimestamp(buf: Uint8Array, pos: number, arrival27MHz: number): void {
  const ats = arrival27MHz % ATS_MODULUS;
  buf[pos] = (ats >>> 24) & 0x3f;
  buf[pos + 1] = (ats >>> 16) & 0xff;
  buf[pos + 2] = (ats >>> 8) & 0xff;
  buf[pos + 3] = ats & 0xff;
}
