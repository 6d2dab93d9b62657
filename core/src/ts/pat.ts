/** Program association section (ISO 13818-1 2.4.4.3). */
import type { ProgramEntry } from '../kernel/observations.js';

export interface ParsedPat {
  programs: ProgramEntry[];
}

/** Parses the program loop of a complete, CRC-checked PAT section; a string names what is wrong. */
export function parsePat(section: Uint8Array, length: number): ParsedPat | string {
  // 8 header bytes, then 4 bytes per program, then CRC_32.
  const loopEnd = length - 4;
  if (loopEnd < 8 || (loopEnd - 8) % 4 !== 0) return `PAT program loop of ${loopEnd - 8} bytes is not a multiple of 4`;
  const programs: ProgramEntry[] = [];
  for (let p = 8; p < loopEnd; p += 4) {
    programs.push({ programNumber: (section[p] << 8) | section[p + 1], pid: ((section[p + 2] & 0x1f) << 8) | section[p + 3] });
  }
  return { programs };
}
