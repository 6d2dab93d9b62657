/**
 * The clauses the mpegts-* checks cite, in one place so that every point of
 * one rule names it the same way.
 *
 * ETSI TR 101 290 (V1.4.1) 5.2 lists its indicators by priority: 5.2.1 the
 * first priority (1.x, necessary for decodability), 5.2.2 the second (2.x,
 * recommended for continuous monitoring).
 */
import type { TsErrorObservation, TsErrorType } from '@klvscope/core';

/** 'ETSI TR 101 290 5.2.1 1.4' from the indicator number '1.4'. */
export function tr101290(indicator: string): string {
  const priority = indicator.split('.')[0];
  return `ETSI TR 101 290 5.2.${priority} ${indicator}`;
}

/** The parser's problems that TR 101 290 has no indicator for, with the ISO/IEC 13818-1 clause they break. */
const ISO_13818_1_CLAUSES: Partial<Record<TsErrorType, string>> = {
  // 2.4.3.2: a transport packet is 188 bytes.
  'truncated-packet': 'ISO/IEC 13818-1 2.4.3.2',
  // 2.4.3.3: transport_scrambling_control (Table 2-4).
  'scrambled-packet': 'ISO/IEC 13818-1 2.4.3.3',
  // 2.4.3.5: adaptation_field_length and its flags; 2.4.3.3 Table 2-5 reserves adaptation_field_control '00'.
  'malformed-adaptation-field': 'ISO/IEC 13818-1 2.4.3.5',
  // 2.4.3.7: PES header fields (start code prefix, marker bits, PTS_DTS_flags).
  'malformed-pes-header': 'ISO/IEC 13818-1 2.4.3.7',
  // 2.4.4: pointer_field and section lengths.
  'malformed-psi-section': 'ISO/IEC 13818-1 2.4.4',
};

/** The clause of a parser problem: its TR 101 290 indicator, else the ISO/IEC 13818-1 clause. */
export function tsErrorCitation(error: TsErrorObservation): string {
  if (error.tr101290 !== null) return tr101290(error.tr101290);
  return ISO_13818_1_CLAUSES[error.type] ?? 'ISO/IEC 13818-1 2.4.3';
}

/** ISO/IEC 13818-1 2.7.2: a PCR at least every 0.1 s; MISB ST 1402 keeps that bound. */
export const PCR_INTERVAL_CLAUSE = 'ISO/IEC 13818-1 2.7.2; MISB ST 1402';
/** TR 101 290 2.3b: consecutive PCR values 0..100 ms apart unless discontinuity_indicator is set (ISO/IEC 13818-1 2.4.3.5). */
export const PCR_STEP_CLAUSE = `${tr101290('2.3b')}; ISO/IEC 13818-1 2.4.3.5`;
/** PAT: ISO/IEC 13818-1 2.4.4.3; cadence per MISB ST 1402 (STANAG 4609) and TR 101 290 1.3.a. */
export const PAT_INTERVAL_CLAUSE = `MISB ST 1402; ${tr101290('1.3.a')}`;
/** PMT: ISO/IEC 13818-1 2.4.4.8; cadence per MISB ST 1402 (STANAG 4609) and TR 101 290 1.5.a. */
export const PMT_INTERVAL_CLAUSE = `MISB ST 1402; ${tr101290('1.5.a')}`;
/** TR 101 290 2.5 and ISO/IEC 13818-1 2.7.4: a PTS at least every 0.7 s. */
export const PTS_INTERVAL_CLAUSE = `${tr101290('2.5')}; ISO/IEC 13818-1 2.7.4`;
/** The T-STD (ISO/IEC 13818-1 2.4.2): data leaves the decoder buffers within 1 s; MISB ST 1402 holds metadata to the same delay. */
export const DECODER_DELAY_CLAUSE = 'ISO/IEC 13818-1 2.4.2; MISB ST 1402';
