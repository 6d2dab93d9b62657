/**
 * What the PSI sections say: CRC check, PAT and PMT parsing, the PIDs they
 * declare, and the TR 101 290 PAT/PMT errors found in the sections
 * themselves (ISO 13818-1 2.4.4; TR 101 290 1.3, 1.5, 2.2). Timing of the
 * tables is left to the checks, which see every 'psi-section' observation.
 */
import type { ElementaryStream, Observation, TsErrorObservation, TsErrorType } from '../kernel/observations.js';
import { crc32Mpeg2 } from './crc32.js';
import { parsePat } from './pat.js';
import { parsePmt } from './pmt.js';
import { readSectionHeader, sectionHasCrc, tableTypeOf } from './psi-section-header.js';
import type { SectionEvents } from './section-assembler.js';

export interface PsiTableEvents {
  emit(observation: Observation): void;
  report(type: TsErrorType, pid: number, offset: number, packetIndex: number, message: string, details?: TsErrorObservation['details']): void;
  /** A PID that the PAT declares as carrying sections (a PMT or the NIT). */
  psiPid(pid: number): void;
  /** A program's PMT: its PCR PID and elementary streams. */
  program(pcrPid: number, streams: readonly ElementaryStream[]): void;
}

export class PsiTables implements SectionEvents {
  private readonly pmtPids = new Set<number>();
  /** CRC of the last PAT/PMT section per PID, table_id_extension and section number: a new CRC means new content. */
  private readonly lastCrc = new Map<number, number>();

  constructor(private readonly events: PsiTableEvents) {}

  isPmtPid(pid: number): boolean {
    return this.pmtPids.has(pid);
  }

  problem(pid: number, message: string, offset: number, packetIndex: number): void {
    this.events.report('malformed-psi-section', pid, offset, packetIndex, message);
  }

  section(pid: number, s: Uint8Array, length: number, offset: number, packetIndex: number): void {
    const events = this.events;
    const tableId = s[0];
    const syntax = (s[1] & 0x80) !== 0;
    if (syntax && length < 12) {
      events.report('malformed-psi-section', pid, offset, packetIndex, `section of ${length} bytes is too short for the long syntax`);
      return;
    }
    if (sectionHasCrc(tableId, syntax) && crc32Mpeg2(s, 0, length) !== 0) {
      const stored = ((s[length - 4] << 24) | (s[length - 3] << 16) | (s[length - 2] << 8) | s[length - 1]) >>> 0;
      events.report('psi-crc-error', pid, offset, packetIndex, `CRC_32 mismatch in a section with table_id 0x${hex2(tableId)}`, {
        tableId,
        storedCrc: stored,
        computedCrc: crc32Mpeg2(s, 0, length - 4),
      });
      return;
    }
    if (pid === 0) {
      if (tableId !== 0x00) {
        events.report('pat-error', pid, offset, packetIndex, `table_id 0x${hex2(tableId)} on PID 0x0000 (TR 101 290 1.3.a)`, { tableId });
        return;
      }
      this.onPat(s, length, offset, packetIndex);
      return;
    }
    if (this.pmtPids.has(pid)) {
      if (tableId === 0x02) this.onPmt(pid, s, length, offset, packetIndex);
      // A PMT PID may also carry private sections (ISO 13818-1 2.4.4.8).
      else if (tableId >= 0x40 && tableId <= 0xfe) this.emitSection(pid, s, length, offset, packetIndex);
      else events.report('pmt-error', pid, offset, packetIndex, `table_id 0x${hex2(tableId)} on a PMT PID (TR 101 290 1.5.a)`, { tableId });
      return;
    }
    this.emitSection(pid, s, length, offset, packetIndex);
  }

  private emitSection(pid: number, s: Uint8Array, length: number, offset: number, packetIndex: number): void {
    const h = readSectionHeader(s);
    const syntax = h.sectionSyntaxIndicator;
    this.events.emit({
      kind: 'psi-section',
      pid,
      tableId: h.tableId,
      tableType: tableTypeOf(h.tableId),
      tableIdExtension: syntax ? h.tableIdExtension : 0,
      version: syntax ? h.version : 0,
      sectionNumber: syntax ? h.sectionNumber : 0,
      lastSectionNumber: syntax ? h.lastSectionNumber : 0,
      sectionLength: length - 3,
      offset,
      packetIndex,
      t: null,
    });
  }

  /** Whether this section differs from the last one with the same identity (by its CRC). */
  private changed(pid: number, s: Uint8Array, length: number): boolean {
    const key = pid * 0x1000000 + ((s[3] << 8) | s[4]) * 0x100 + s[6];
    const crc = ((s[length - 4] << 24) | (s[length - 3] << 16) | (s[length - 2] << 8) | s[length - 1]) >>> 0;
    if (this.lastCrc.get(key) === crc) return false;
    this.lastCrc.set(key, crc);
    return true;
  }

  private onPat(s: Uint8Array, length: number, offset: number, packetIndex: number): void {
    this.emitSection(0, s, length, offset, packetIndex);
    const h = readSectionHeader(s);
    // A section with current_next_indicator 0 announces the next version; it does not apply yet.
    if (!h.currentNext || !this.changed(0, s, length)) return;
    const pat = parsePat(s, length);
    if (typeof pat === 'string') {
      this.events.report('malformed-psi-section', 0, offset, packetIndex, pat);
      return;
    }
    for (const program of pat.programs) {
      if (program.programNumber !== 0) this.pmtPids.add(program.pid);
      this.events.psiPid(program.pid);
    }
    this.events.emit({
      kind: 'pat',
      pid: 0,
      transportStreamId: h.tableIdExtension,
      version: h.version,
      programs: pat.programs,
      offset,
      packetIndex,
      t: null,
    });
  }

  private onPmt(pid: number, s: Uint8Array, length: number, offset: number, packetIndex: number): void {
    this.emitSection(pid, s, length, offset, packetIndex);
    const h = readSectionHeader(s);
    if (!h.currentNext || !this.changed(pid, s, length)) return;
    const pmt = parsePmt(s, length);
    if (typeof pmt === 'string') {
      this.events.report('malformed-psi-section', pid, offset, packetIndex, pmt);
      return;
    }
    this.events.program(pmt.pcrPid, pmt.streams);
    this.events.emit({
      kind: 'pmt',
      pid,
      programNumber: h.tableIdExtension,
      version: h.version,
      pcrPid: pmt.pcrPid,
      programDescriptors: pmt.programDescriptors,
      streams: pmt.streams,
      offset,
      packetIndex,
      t: null,
    });
  }
}

function hex2(value: number): string {
  return value.toString(16).padStart(2, '0');
}
