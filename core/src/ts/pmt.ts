/** TS program map section (ISO 13818-1 2.4.4.8). */
import type { Descriptor, ElementaryStream } from '../kernel/observations.js';
import { parseDescriptors } from './descriptors.js';
import { streamTypeName } from './stream-types.js';

export interface ParsedPmt {
  pcrPid: number;
  programDescriptors: Descriptor[];
  streams: ElementaryStream[];
}

/** Parses a complete, CRC-checked PMT section; a string names what is wrong. */
export function parsePmt(section: Uint8Array, length: number): ParsedPmt | string {
  const loopEnd = length - 4;
  if (loopEnd < 12) return 'PMT section too short';
  const pcrPid = ((section[8] & 0x1f) << 8) | section[9];
  const programInfoLength = ((section[10] & 0x0f) << 8) | section[11];
  const programInfoEnd = 12 + programInfoLength;
  if (programInfoEnd > loopEnd) return `program_info_length ${programInfoLength} runs past the section`;
  const programDescriptors = parseDescriptors(section, 12, programInfoEnd);
  if (!programDescriptors) return 'a program descriptor runs past program_info_length';
  const streams: ElementaryStream[] = [];
  let p = programInfoEnd;
  while (p < loopEnd) {
    if (p + 5 > loopEnd) return 'elementary stream entry truncated';
    const streamType = section[p];
    const pid = ((section[p + 1] & 0x1f) << 8) | section[p + 2];
    const esInfoLength = ((section[p + 3] & 0x0f) << 8) | section[p + 4];
    const esInfoEnd = p + 5 + esInfoLength;
    if (esInfoEnd > loopEnd) return `ES_info_length ${esInfoLength} of PID 0x${pid.toString(16)} runs past the section`;
    const descriptors = parseDescriptors(section, p + 5, esInfoEnd);
    if (!descriptors) return `a descriptor of PID 0x${pid.toString(16)} runs past ES_info_length`;
    streams.push({ streamType, streamTypeName: streamTypeName(streamType), pid, descriptors });
    p = esInfoEnd;
  }
  return { pcrPid, programDescriptors, streams };
}

/** Stream types whose PID carries sections, not PES (ISO 13818-1 Table 2-34). */
export function carriesSections(streamType: number): boolean {
  return streamType === 0x05 || (streamType >= 0x0a && streamType <= 0x0d) || streamType === 0x16 || streamType === 0x86;
}
