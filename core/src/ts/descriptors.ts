/**
 * Descriptor loops (ISO 13818-1 2.6): tag, length, body. The ones an FMV
 * engineer looks for are decoded into fields; every other one is kept raw.
 */
import type { Descriptor } from '../kernel/observations.js';

const DESCRIPTOR_NAMES: Readonly<Record<number, string>> = {
  0x02: 'video_stream',
  0x03: 'audio_stream',
  0x04: 'hierarchy',
  0x05: 'registration',
  0x06: 'data_stream_alignment',
  0x07: 'target_background_grid',
  0x08: 'video_window',
  0x09: 'CA',
  0x0a: 'ISO_639_language',
  0x0b: 'system_clock',
  0x0c: 'multiplex_buffer_utilization',
  0x0d: 'copyright',
  0x0e: 'maximum_bitrate',
  0x0f: 'private_data_indicator',
  0x10: 'smoothing_buffer',
  0x11: 'STD',
  0x12: 'IBP',
  0x1b: 'MPEG-4_video',
  0x1c: 'MPEG-4_audio',
  0x1d: 'IOD',
  0x1e: 'SL',
  0x1f: 'FMC',
  0x24: 'content_labeling',
  0x25: 'metadata_pointer',
  0x26: 'metadata',
  0x27: 'metadata_STD',
  0x28: 'AVC_video',
  0x2a: 'AVC_timing_and_HRD',
  0x2b: 'MPEG-2_AAC_audio',
  0x38: 'HEVC_video',
  0x3f: 'extension',
  0x48: 'service',
  0x52: 'stream_identifier',
  0x56: 'teletext',
  0x59: 'subtitling',
  0x6a: 'AC-3',
  0x7a: 'enhanced_AC-3',
  0x7c: 'AAC',
};

function hex(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('hex');
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    text += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return text;
}

/** Three 22-bit values after 2 reserved bits each (ISO 13818-1 2.6.62, metadata_STD_descriptor). */
function read22(bytes: Uint8Array, pos: number): number {
  return ((bytes[pos] & 0x3f) << 16) | (bytes[pos + 1] << 8) | bytes[pos + 2];
}

type Fields = Record<string, string | number | boolean>;

/** ISO 13818-1 2.6.60 metadata_descriptor. */
function metadataFields(b: Uint8Array, s: number, e: number): Fields | undefined {
  const fields: Fields = {};
  let p = s;
  if (p + 2 > e) return undefined;
  const applicationFormat = (b[p] << 8) | b[p + 1];
  fields.metadataApplicationFormat = applicationFormat;
  p += 2;
  if (applicationFormat === 0xffff) {
    if (p + 4 > e) return undefined;
    fields.metadataApplicationFormatIdentifier = ascii(b, p, p + 4);
    p += 4;
  }
  if (p + 1 > e) return undefined;
  const format = b[p++];
  fields.metadataFormat = format;
  if (format === 0xff) {
    if (p + 4 > e) return undefined;
    fields.metadataFormatIdentifier = ascii(b, p, p + 4);
    p += 4;
  }
  if (p + 2 > e) return undefined;
  fields.metadataServiceId = b[p++];
  fields.decoderConfigFlags = b[p] >>> 5;
  fields.dsmccFlag = (b[p] & 0x10) !== 0;
  return fields;
}

function decodeFields(tag: number, b: Uint8Array, s: number, e: number): Fields | undefined {
  const length = e - s;
  switch (tag) {
    case 0x05: // 2.6.8 registration_descriptor
      if (length < 4) return undefined;
      return { formatIdentifier: ascii(b, s, s + 4) };
    case 0x0a: { // 2.6.18 ISO_639_language_descriptor
      if (length < 4) return undefined;
      const languages: string[] = [];
      for (let p = s; p + 4 <= e; p += 4) languages.push(ascii(b, p, p + 3));
      return { language: languages.join(','), audioType: b[s + 3] };
    }
    case 0x0e: // 2.6.26 maximum_bitrate_descriptor, units of 50 bytes/s
      if (length < 3) return undefined;
      return { maximumBitrate: ((((b[s] & 0x3f) << 16) | (b[s + 1] << 8) | b[s + 2]) * 400) };
    case 0x26:
      return metadataFields(b, s, e);
    case 0x27: // 2.6.62 metadata_STD_descriptor
      if (length < 9) return undefined;
      return { metadataInputLeakRate: read22(b, s), metadataBufferSize: read22(b, s + 3), metadataOutputLeakRate: read22(b, s + 6) };
    case 0x52: // EN 300 468 stream_identifier_descriptor
      if (length < 1) return undefined;
      return { componentTag: b[s] };
    default:
      return undefined;
  }
}

/**
 * Parses a descriptor loop in `bytes[start, end)`. Returns null when a
 * descriptor's length runs past the loop (the caller reports it).
 */
export function parseDescriptors(bytes: Uint8Array, start: number, end: number): Descriptor[] | null {
  const descriptors: Descriptor[] = [];
  let p = start;
  while (p < end) {
    if (p + 2 > end) return null;
    const tag = bytes[p];
    const length = bytes[p + 1];
    const bodyStart = p + 2;
    const bodyEnd = bodyStart + length;
    if (bodyEnd > end) return null;
    const descriptor: Descriptor = {
      tag,
      name: DESCRIPTOR_NAMES[tag] ?? (tag >= 0x40 ? 'user_private_or_dvb' : 'reserved'),
      dataHex: hex(bytes, bodyStart, bodyEnd),
    };
    const fields = decodeFields(tag, bytes, bodyStart, bodyEnd);
    if (fields) descriptor.fields = fields;
    descriptors.push(descriptor);
    p = bodyEnd;
  }
  return descriptors;
}

/** The format_identifier of the first registration descriptor, e.g. 'KLVA' or 'HEVC'. */
export function registrationFormat(descriptors: readonly Descriptor[]): string | null {
  for (const d of descriptors) {
    if (d.tag === 0x05 && d.fields && typeof d.fields.formatIdentifier === 'string') return d.fields.formatIdentifier;
  }
  return null;
}
