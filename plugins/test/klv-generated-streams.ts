/**
 * Generated streams for the KLV check tests: clean streams of every shape
 * the generator makes (no KLV; synchronous and asynchronous KLV with and
 * without PTS; 188 and 192-byte packets; with and without audio), and
 * streams with KLV faults, whose ground truth the tests compare with.
 */
import { parseFaultSpec, type GeneratorOptions, type InjectedFault, type KlvStreamOptions, type Point } from '@klvscope/core';

export const KLV_BASE: GeneratorOptions = { durationSeconds: 4, bitrate: 3_000_000, seed: 11 };

export interface GeneratedCase {
  name: string;
  input: { generate: GeneratorOptions };
}

function stream(name: string, options: Partial<GeneratorOptions>): GeneratedCase {
  return { name, input: { generate: { ...KLV_BASE, ...options } } };
}

/** Clean streams with KLV: every carriage, both packet sizes, with and without audio. */
export const CLEAN_KLV_STREAMS: GeneratedCase[] = [
  stream('synchronous KLV at 30 Hz, 188-byte packets, video only', { klv: { carriage: 'sync' } }),
  stream('synchronous KLV at 30 Hz, 188-byte packets, audio', { audio: true, klv: { carriage: 'sync' } }),
  stream('synchronous KLV at 30 Hz, 192-byte packets, audio', { audio: true, packetSize: 192, klv: { carriage: 'sync' } }),
  stream('asynchronous KLV with PTS at 30 Hz, 188-byte packets, video only', { klv: { carriage: 'async', pts: true } }),
  stream('asynchronous KLV with PTS at 30 Hz, 192-byte packets, audio', { audio: true, packetSize: 192, klv: { carriage: 'async', pts: true } }),
  stream('asynchronous KLV without PTS at 30 Hz, 188-byte packets, audio', { audio: true, klv: { carriage: 'async' } }),
  stream('asynchronous KLV without PTS at 10 Hz, 192-byte packets, video only', { packetSize: 192, klv: { carriage: 'async', rateHz: 10 } }),
];

/** Clean streams without KLV (the KLV checks are not applicable to them). */
export const NO_KLV_STREAMS: GeneratedCase[] = [stream('no KLV, 188-byte packets, audio', { audio: true }), stream('no KLV, 192-byte packets, video only', { packetSize: 192 })];

/** A stream with these faults (KIND@SECONDS[,...] each, in time order) and KLV as given. */
export function klvFaultStream(specs: readonly string[], klv: KlvStreamOptions, options: Partial<GeneratorOptions> = {}): { generate: GeneratorOptions } {
  return { generate: { ...KLV_BASE, ...options, klv, faults: specs.map((s) => parseFaultSpec(s)) } };
}

/** The violations as (packet, type), to compare with the ground truth. */
export function violationsAt(violations: readonly Point[]): Array<{ packetIndex: number; type: string | undefined }> {
  return violations.map((v) => ({ packetIndex: v.packetIndex, type: v.type }));
}

/** The ground truth as (packet, type): each injected fault must be found at its packet, as a violation of this type. */
export function faultsAt(faults: readonly InjectedFault[], type: string): Array<{ packetIndex: number; type: string }> {
  return faults.map((f) => ({ packetIndex: f.packetIndex, type }));
}
