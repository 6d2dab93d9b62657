/**
 * Observations of generated streams for the dataset tests: KLV in both
 * carriages, with faults injected so that every observation kind occurs,
 * demuxed the way an ingest run does (createKlvAwareTsDemuxer).
 */
import { generateTransportStream, parseFaultSpec, type GeneratorOptions } from '../../../src/gen/index.js';
import type { Observation, ObservationKind } from '../../../src/kernel/observations.js';
import { createKlvAwareTsDemuxer } from '../../../src/klv/st1402-demuxer.js';

/** Every observation the engine emits for `bytes`, in emission order. */
export function demuxObservations(bytes: Uint8Array, chunkSize = 65_536): Observation[] {
  const observations: Observation[] = [];
  const demuxer = createKlvAwareTsDemuxer((o) => observations.push(o));
  for (let i = 0; i < bytes.length; i += chunkSize) demuxer.push(bytes.subarray(i, i + chunkSize));
  demuxer.end();
  return observations;
}

/**
 * Sets discontinuity_indicator (ISO 13818-1 2.4.3.4, the first bit after
 * adaptation_field_length) in the first `count` packets at or after packet
 * `fromPacket` that carry a non-empty adaptation field. The generator has no
 * fault kind for it; the PCR checks see a signalled discontinuity.
 */
export function setDiscontinuityIndicators(bytes: Uint8Array, packetSize: number, fromPacket: number, count: number): number[] {
  const prefix = packetSize === 192 ? 4 : 0;
  const marked: number[] = [];
  for (let index = fromPacket; marked.length < count && (index + 1) * packetSize <= bytes.length; index++) {
    const sync = index * packetSize + prefix;
    const adaptationFieldControl = (bytes[sync + 3] >> 4) & 0x03;
    if ((adaptationFieldControl & 0x02) === 0 || bytes[sync + 4] === 0) continue;
    bytes[sync + 5] |= 0x80;
    marked.push(index);
  }
  return marked;
}

export interface GeneratedCase {
  readonly name: string;
  readonly options: GeneratorOptions;
}

const TS_FAULTS = ['drop-packet@0.5', 'duplicate-packet@0.8', 'tei@1.1', 'sync-byte@1.4', 'psi-crc@1.7', 'pcr-jump-forward@2.2', 'pts-gap@2.6'];

/** Streams whose observations cover every kind between them (each one covers them all). */
export const GENERATED_CASES: readonly GeneratedCase[] = [
  {
    name: 'synchronous KLV with audio and transport and KLV faults, 188-byte packets',
    options: {
      durationSeconds: 4,
      bitrate: 3_000_000,
      seed: 7,
      audio: true,
      klv: { carriage: 'sync' },
      faults: [...TS_FAULTS, 'klv-checksum@1.0', 'klv-unknown-tag@2.0', 'klv-truncated@3.0'].map((spec) => parseFaultSpec(spec)),
    },
  },
  {
    name: 'asynchronous KLV with PTS and transport and KLV faults, 192-byte packets',
    options: {
      durationSeconds: 4,
      bitrate: 3_000_000,
      seed: 11,
      packetSize: 192,
      klv: { carriage: 'async', pts: true },
      faults: [...TS_FAULTS, 'klv-duplicate-tag@1.0', 'klv-missing-version@2.0', 'klv-wrong-key@3.0'].map((spec) => parseFaultSpec(spec)),
    },
  },
];

/** A generated case's bytes (with two discontinuity indicators set) and what the engine makes of them. */
export function generatedObservations(options: GeneratorOptions): { bytes: Uint8Array; observations: Observation[] } {
  const { bytes } = generateTransportStream(options);
  const packetSize = options.packetSize ?? 188;
  setDiscontinuityIndicators(bytes, packetSize, Math.floor(bytes.length / packetSize / 2), 2);
  return { bytes, observations: demuxObservations(bytes) };
}

/** How many observations of each kind a list holds (kinds that do not occur are absent). */
export function countByKind(observations: readonly Observation[]): Partial<Record<ObservationKind, number>> {
  const counts: Partial<Record<ObservationKind, number>> = {};
  for (const o of observations) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
  return counts;
}
