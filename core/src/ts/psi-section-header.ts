/** The long-form PSI section header (ISO 13818-1 2.4.4.10, Table 2-30) and which tables carry a CRC_32. */
import type { PsiTableType } from '../kernel/observations.js';

export interface SectionHeader {
  tableId: number;
  sectionSyntaxIndicator: boolean;
  sectionLength: number;
  tableIdExtension: number;
  version: number;
  currentNext: boolean;
  sectionNumber: number;
  lastSectionNumber: number;
}

export function readSectionHeader(s: Uint8Array): SectionHeader {
  return {
    tableId: s[0],
    sectionSyntaxIndicator: (s[1] & 0x80) !== 0,
    sectionLength: ((s[1] & 0x0f) << 8) | s[2],
    tableIdExtension: (s[3] << 8) | s[4],
    version: (s[5] >>> 1) & 0x1f,
    currentNext: (s[5] & 0x01) !== 0,
    sectionNumber: s[6],
    lastSectionNumber: s[7],
  };
}

/**
 * Sections with the long syntax end with CRC_32 (ISO 13818-1 2.4.4.10); so does
 * the DVB TOT (EN 300 468 5.2.6) despite its short syntax. TDT has none.
 */
export function sectionHasCrc(tableId: number, sectionSyntaxIndicator: boolean): boolean {
  return sectionSyntaxIndicator || tableId === 0x73;
}

/** Table type by table_id (ISO 13818-1 Table 2-31, EN 300 468 Table 2). */
export function tableTypeOf(tableId: number): PsiTableType {
  if (tableId === 0x00) return 'PAT';
  if (tableId === 0x01) return 'CAT';
  if (tableId === 0x02) return 'PMT';
  if (tableId === 0x40 || tableId === 0x41) return 'NIT';
  if (tableId === 0x42 || tableId === 0x46) return 'SDT';
  if (tableId >= 0x4e && tableId <= 0x6f) return 'EIT';
  if (tableId === 0x70) return 'TDT';
  if (tableId === 0x73) return 'TOT';
  return 'other';
}
