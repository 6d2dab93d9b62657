/**
 * The program association section (ISO 13818-1 2.4.4.3, Table 2-30).
 */
import { writeLongSection } from './psi-section-writer.js';

export const PAT_PID = 0x0000;
export const PAT_TABLE_ID = 0x00;

export interface PatProgram {
  /** program_number; 0 designates the network PID. */
  programNumber: number;
  /** program_map_PID (or network_PID for program 0). */
  pid: number;
}

export interface PatFields {
  transportStreamId: number;
  version?: number;
  programs: readonly PatProgram[];
}

/** A PAT section: per program, program_number, reserved '111' and the 13-bit PID. */
export function writePatSection(fields: PatFields): Uint8Array {
  const body = new Uint8Array(fields.programs.length * 4);
  fields.programs.forEach((program, i) => {
    body[i * 4] = program.programNumber >>> 8;
    body[i * 4 + 1] = program.programNumber & 0xff;
    body[i * 4 + 2] = 0xe0 | (program.pid >>> 8);
    body[i * 4 + 3] = program.pid & 0xff;
  });
  return writeLongSection({ tableId: PAT_TABLE_ID, tableIdExtension: fields.transportStreamId, version: fields.version, body });
}
