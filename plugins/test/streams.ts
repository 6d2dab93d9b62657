/** Generated streams the check tests share: clean ones of every shape, and one fault at a time. */
import { parseFaultSpec, type GeneratorOptions } from '@klvscope/core';

const base: GeneratorOptions = { durationSeconds: 3, bitrate: 3_000_000, seed: 11 };

/** Clean streams: 188 and 192-byte packets, with and without audio, without KLV and with sync and async KLV. */
export const CLEAN_STREAMS: Array<{ name: string; input: { generate: GeneratorOptions } }> = [
  { name: '188-byte packets, video only', input: { generate: { ...base } } },
  { name: '188-byte packets with audio', input: { generate: { ...base, audio: true } } },
  { name: '192-byte packets with audio', input: { generate: { ...base, audio: true, packetSize: 192 } } },
  { name: 'synchronous KLV at 30 Hz', input: { generate: { ...base, klv: { carriage: 'sync' } } } },
  { name: 'asynchronous KLV with PTS, 192-byte packets, audio', input: { generate: { ...base, audio: true, packetSize: 192, klv: { carriage: 'async', pts: true } } } },
  { name: 'asynchronous KLV without PTS at 10 Hz', input: { generate: { ...base, klv: { carriage: 'async', rateHz: 10 } } } },
];

/** A stream with one fault (KIND@SECONDS), with sync KLV when `klv` is set. */
export function withFault(spec: string, klv: 'sync' | 'async' | null = null): { generate: GeneratorOptions } {
  return { generate: { ...base, durationSeconds: 4, faults: [parseFaultSpec(spec)], ...(klv ? { klv: { carriage: klv, pts: true } } : {}) } };
}
