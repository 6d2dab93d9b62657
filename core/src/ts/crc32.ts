/**
 * CRC-32/MPEG-2 (ISO 13818-1 Annex A): polynomial 0x04C11DB7, initial value
 * 0xFFFFFFFF, no reflection, no final xor. Run over a whole PSI section
 * including its CRC_32 field it yields 0.
 */

const TABLE = buildTable();

function buildTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 24;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    }
    table[i] = crc >>> 0;
  }
  return table;
}

/** CRC-32/MPEG-2 of `bytes[start, end)`, as an unsigned 32-bit number. */
export function crc32Mpeg2(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) {
    crc = (crc << 8) ^ TABLE[((crc >>> 24) ^ bytes[i]) & 0xff];
  }
  return crc >>> 0;
}
