/**
 * The observation kinds as data, for validating check definitions and for
 * dispatch: checks are looked up by a small integer per kind (an array
 * index), not by the kind string, so routing an observation costs one switch.
 */
import type { ObservationKind } from './observations.js';

/** Every observation kind, in dispatch-index order. */
export const OBSERVATION_KINDS = [
  'pcr',
  'discontinuity',
  'psi-section',
  'pat',
  'pmt',
  'pes',
  'ts-error',
  'pid-stats',
  'klv-packet',
  'metadata-packet',
  'klv-field',
  'klv-error',
] as const satisfies readonly ObservationKind[];

// Fails to compile when observations.ts gains a kind that is missing above.
type MissingKind = Exclude<ObservationKind, (typeof OBSERVATION_KINDS)[number]>;
const everyKindListed: [MissingKind] extends [never] ? true : MissingKind = true;
void everyKindListed;

export function isObservationKind(value: unknown): value is ObservationKind {
  return typeof value === 'string' && observationKindIndex(value as ObservationKind) >= 0;
}

/**
 * The dispatch index of a kind (its position in OBSERVATION_KINDS), or -1 for
 * a string that is no kind (stored observations from another version).
 * A switch over interned strings measured ~1.5x faster than a Map or a
 * keyed object lookup in the dispatch loop.
 */
export function observationKindIndex(kind: ObservationKind): number {
  // The commonest kinds first (a KLV packet makes one klv-field per item; video and audio make the PES): before
  // the dispatch is compiled, each case costs a comparison.
  switch (kind) {
    case 'klv-field':
      return 10;
    case 'pes':
      return 5;
    case 'pcr':
      return 0;
    case 'psi-section':
      return 2;
    case 'klv-packet':
      return 8;
    case 'metadata-packet':
      return 9;
    case 'discontinuity':
      return 1;
    case 'pat':
      return 3;
    case 'pmt':
      return 4;
    case 'ts-error':
      return 6;
    case 'pid-stats':
      return 7;
    case 'klv-error':
      return 11;
    default:
      return -1;
  }
}
