/** Names of the common stream_type values (ISO 13818-1 Table 2-34, and registered private types). */
const STREAM_TYPE_NAMES: Readonly<Record<number, string>> = {
  0x01: 'MPEG-1 video',
  0x02: 'MPEG-2 video',
  0x03: 'MPEG-1 audio',
  0x04: 'MPEG-2 audio',
  0x05: 'private sections',
  0x06: 'PES private data',
  0x07: 'MHEG',
  0x08: 'DSM-CC',
  0x0a: 'DSM-CC type A',
  0x0b: 'DSM-CC type B',
  0x0c: 'DSM-CC type C',
  0x0d: 'DSM-CC type D',
  0x0f: 'AAC audio (ADTS)',
  0x10: 'MPEG-4 video',
  0x11: 'AAC audio (LATM)',
  0x12: 'MPEG-4 SL in PES',
  0x13: 'MPEG-4 SL in sections',
  0x14: 'DSM-CC synchronized download',
  0x15: 'metadata in PES',
  0x16: 'metadata in sections',
  0x17: 'metadata in data carousel',
  0x18: 'metadata in object carousel',
  0x19: 'metadata in synchronized download',
  0x1b: 'H.264/AVC video',
  0x1c: 'MPEG-4 audio',
  0x1f: 'H.264/SVC video',
  0x20: 'H.264/MVC video',
  0x21: 'JPEG 2000 video',
  0x24: 'H.265/HEVC video',
  0x33: 'H.266/VVC video',
  0x42: 'AVS video',
  0x81: 'AC-3 audio',
  0x82: 'DTS audio',
  0x83: 'Dolby TrueHD audio',
  0x84: 'E-AC-3 audio',
  0x86: 'SCTE-35 splice info',
  0x87: 'E-AC-3 audio (ATSC)',
  0xd1: 'Dirac video',
  0xea: 'VC-1 video',
};

/** The human name of a stream_type, e.g. 0x1B -> 'H.264/AVC video'. */
export function streamTypeName(streamType: number): string {
  return STREAM_TYPE_NAMES[streamType] ?? `unknown (0x${streamType.toString(16).padStart(2, '0')})`;
}

/**
 * Whether a stream_type carries video: those named as video above (MPEG-1, MPEG-2, MPEG-4 part 2,
 * H.264 and its SVC and MVC, JPEG 2000, H.265, H.266, AVS, Dirac, VC-1). The one list the
 * inventory, the streaming module, the relay's detection and the playback use.
 */
export function isVideoStreamType(streamType: number): boolean {
  return STREAM_TYPE_NAMES[streamType]?.endsWith(' video') === true;
}

/**
 * Whether a stream_type carries audio: those named as audio above (MPEG-1 and MPEG-2 audio, AAC in
 * ADTS and LATM, MPEG-4 audio, AC-3, E-AC-3, DTS, TrueHD).
 */
export function isAudioStreamType(streamType: number): boolean {
  return / audio\b/.test(STREAM_TYPE_NAMES[streamType] ?? '');
}
