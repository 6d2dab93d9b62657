/**
 * The adaptation field (ISO 13818-1 2.4.3.4, Table 2-6): flags, the PCR and
 * stuffing bytes.
 */

/** Flag bits of the byte after adaptation_field_length (ISO 13818-1 2.4.3.5). */
export const AF_DISCONTINUITY = 0x80;
export const AF_RANDOM_ACCESS = 0x40;
export const AF_ES_PRIORITY = 0x20;
export const AF_PCR = 0x10;

/** Bytes of program_clock_reference in the adaptation field. */
export const PCR_FIELD_SIZE = 6;
/** Offset of program_clock_reference from the sync byte when it is the first optional field. */
export const PCR_OFFSET_IN_PACKET = 6;

/**
 * The smallest adaptation_field_length that holds `flags` and, when `withPcr`,
 * the PCR: 0 (the length byte alone) when there is nothing to signal.
 */
export function minimumAdaptationFieldLength(flags: number, withPcr: boolean): number {
  if (withPcr) return 1 + PCR_FIELD_SIZE;
  return flags !== 0 ? 1 : 0;
}

/**
 * ISO 13818-1 2.4.3.4: writes an adaptation field whose
 * adaptation_field_length is `fieldLength` at `buf[pos]` and returns the
 * position after it (`pos + 1 + fieldLength`). `flags` are the indicator bits
 * (AF_DISCONTINUITY, AF_RANDOM_ACCESS, AF_ES_PRIORITY); PCR_flag is set when
 * `pcr27MHz >= 0`. The remainder is stuffing (0xFF, 2.4.3.5 stuffing_byte).
 */
export function writeAdaptationField(buf: Uint8Array, pos: number, fieldLength: number, flags: number, pcr27MHz: number): number {
  const withPcr = pcr27MHz >= 0;
  if (fieldLength < minimumAdaptationFieldLength(flags, withPcr) || fieldLength > 183) {
    throw new RangeError(`adaptation_field_length ${fieldLength} cannot hold flags 0x${flags.toString(16)}${withPcr ? ' and a PCR' : ''}`);
  }
  buf[pos] = fieldLength;
  const end = pos + 1 + fieldLength;
  if (fieldLength === 0) return end;
  buf[pos + 1] = (flags & 0xe0) | (withPcr ? AF_PCR : 0);
  let p = pos + 2;
  if (withPcr) {
    writePcr(buf, p, pcr27MHz);
    p += PCR_FIELD_SIZE;
  }
  buf.fill(0xff, p, end);
  return end;
}

/**
 * ISO 13818-1 2.4.3.5: program_clock_reference_base (33 bits, 90 kHz),
 * 6 reserved bits set to 1, program_clock_reference_extension (9 bits,
 * 0..299), from a 42-bit 27 MHz value `base * 300 + extension`.
 */
export function writePcr(buf: Uint8Array, pos: number, pcr27MHz: number): void {
  const base = Math.floor(pcr27MHz / 300);
  const extension = pcr27MHz - base * 300;
  // The top 32 of the 33 base bits fit an unsigned 32-bit integer.
  const high = Math.floor(base / 2);
  buf[pos] = (high >>> 24) & 0xff;
  buf[pos + 1] = (high >>> 16) & 0xff;
  buf[pos + 2] = (high >>> 8) & 0xff;
  buf[pos + 3] = high & 0xff;
  buf[pos + 4] = ((base % 2) << 7) | 0x7e | (extension >>> 8);
  buf[pos + 5] = extension & 0xff;
}
