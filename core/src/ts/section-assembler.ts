/**
 * Reassembles PSI/SI sections of one PID from TS packet payloads
 * (ISO 13818-1 2.4.4.1-2: pointer_field in packets whose
 * payload_unit_start_indicator is set; sections may span packets and several
 * may share one packet; 0xFF bytes after a section are stuffing).
 */

/** Largest section: section_length is at most 4093 for private sections (ISO 13818-1 2.4.4.11). */
const MAX_SECTION_BYTES = 3 + 4093;

export interface SectionEvents {
  /** A complete section in `section[0, length)`; the buffer is reused after the call returns. */
  section(pid: number, section: Uint8Array, length: number, startOffset: number, startIndex: number): void;
  /** A structural problem (bad pointer_field, section cut short, oversize section_length). */
  problem(pid: number, message: string, offset: number, packetIndex: number): void;
}

export class SectionAssembler {
  private readonly buffer = new Uint8Array(MAX_SECTION_BYTES);
  private length = 0;
  /** Total bytes of the section being assembled, or -1 until its 3-byte header is in. */
  private needed = -1;
  private active = false;
  private startOffset = 0;
  private startIndex = 0;

  constructor(private readonly pid: number, private readonly events: SectionEvents) {}

  /** Drops a partly assembled section (after a lost or damaged packet). */
  reset(): void {
    this.active = false;
  }

  push(bytes: Uint8Array, start: number, end: number, unitStart: boolean, offset: number, packetIndex: number): void {
    let pos = start;
    if (!unitStart) {
      if (this.active) this.append(bytes, pos, end, offset, packetIndex);
      return;
    }
    if (pos >= end) {
      this.events.problem(this.pid, 'payload_unit_start_indicator set on an empty payload', offset, packetIndex);
      return;
    }
    const pointer = bytes[pos++];
    if (pos + pointer > end) {
      this.events.problem(this.pid, `pointer_field ${pointer} points past the packet payload`, offset, packetIndex);
      this.active = false;
      return;
    }
    if (this.active) {
      this.append(bytes, pos, pos + pointer, offset, packetIndex);
      if (this.active) {
        this.events.problem(this.pid, 'section ended before its section_length', this.startOffset, this.startIndex);
        this.active = false;
      }
    }
    pos += pointer;
    while (pos < end && bytes[pos] !== 0xff) {
      this.active = true;
      this.length = 0;
      this.needed = -1;
      this.startOffset = offset;
      this.startIndex = packetIndex;
      pos = this.append(bytes, pos, end, offset, packetIndex);
      if (this.active) break;
    }
  }

  /** Copies bytes into the section; emits it when complete. Returns the position after what it used. */
  private append(bytes: Uint8Array, start: number, end: number, offset: number, packetIndex: number): number {
    let pos = start;
    if (this.needed < 0) {
      while (this.length < 3 && pos < end) this.buffer[this.length++] = bytes[pos++];
      if (this.length < 3) return pos;
      const sectionLength = ((this.buffer[1] & 0x0f) << 8) | this.buffer[2];
      if (sectionLength > 4093) {
        this.events.problem(this.pid, `section_length ${sectionLength} exceeds 4093`, offset, packetIndex);
        this.active = false;
        return end;
      }
      this.needed = 3 + sectionLength;
    }
    const take = Math.min(end - pos, this.needed - this.length);
    this.buffer.set(bytes.subarray(pos, pos + take), this.length);
    this.length += take;
    pos += take;
    if (this.length === this.needed) {
      this.active = false;
      this.events.section(this.pid, this.buffer, this.length, this.startOffset, this.startIndex);
    }
    return pos;
  }
}
