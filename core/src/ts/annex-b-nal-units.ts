/**
 * NAL units of an Annex B byte stream (ITU-T H.264 Annex B, H.265 Annex B):
 * each starts after a start code prefix 00 00 01, often preceded by a
 * zero_byte (00 00 00 01), and ends where the next prefix or its leading
 * zero bytes begin (trailing_zero_8bits belong to no NAL unit). Also the
 * RBSP of a NAL unit: its bytes with the emulation prevention bytes removed
 * (H.264 7.4.1, H.265 7.4.2). Never throws: bytes without a start code have
 * no NAL unit.
 */

export interface NalUnitSpan {
  /** First byte of the start code (its zero_byte when there is one). */
  prefixStart: number;
  /** First byte of the NAL unit header. */
  start: number;
  /** One past the last byte (trailing zero bytes excluded). */
  end: number;
}

/** The NAL units of `bytes[from, to)`, in order. */
export function annexBNalUnits(bytes: Uint8Array, from = 0, to = bytes.length): NalUnitSpan[] {
  const units: NalUnitSpan[] = [];
  let current: NalUnitSpan | null = null;
  let i = from;
  while (i + 2 < to) {
    // Scan for 00 00 01; a byte > 1 at i + 2 lets the scan skip three bytes.
    const b2 = bytes[i + 2];
    if (b2 > 1) {
      i += 3;
      continue;
    }
    if (b2 === 1 && bytes[i] === 0 && bytes[i + 1] === 0) {
      let prefixStart = i;
      const floor = current ? current.start : from;
      while (prefixStart > floor && bytes[prefixStart - 1] === 0) prefixStart--;
      if (current) current.end = prefixStart;
      current = { prefixStart, start: i + 3, end: to };
      units.push(current);
      i += 3;
      continue;
    }
    i++;
  }
  if (current) {
    let end = to;
    while (end > current.start && bytes[end - 1] === 0) end--;
    current.end = end;
  }
  return units.filter((u) => u.end > u.start);
}

/**
 * The first byte of the NAL unit header after the first start code prefix at or after `from`
 * (and before `to`), or -1: a walk that stops at the unit it wants, where annexBNalUnits reads
 * every unit of the bytes.
 */
export function nextNalUnitStart(bytes: Uint8Array, from: number, to = bytes.length): number {
  let i = from;
  while (i + 2 < to) {
    const b2 = bytes[i + 2];
    if (b2 > 1) i += 3;
    else if (b2 === 1 && bytes[i] === 0 && bytes[i + 1] === 0) return i + 3;
    else i++;
  }
  return -1;
}

/** Where the NAL unit starting at `start` ends: at the next start code prefix (its zero bytes excluded) or at `to`. */
export function nalUnitEnd(bytes: Uint8Array, start: number, to = bytes.length): number {
  const next = nextNalUnitStart(bytes, start, to);
  let end = next < 0 ? to : next - 3;
  while (end > start && bytes[end - 1] === 0) end--;
  return end;
}

/**
 * The RBSP of the NAL unit at `bytes[start, end)` from byte `skip` of it on
 * (past its header): every 00 00 03 loses its 03 (H.264 7.4.1:
 * emulation_prevention_three_byte).
 */
export function nalUnitRbsp(bytes: Uint8Array, start: number, end: number, skip: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start - skip));
  let n = 0;
  let zeros = 0;
  for (let i = start + skip; i < end; i++) {
    const b = bytes[i];
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out[n++] = b;
  }
  return out.subarray(0, n);
}
