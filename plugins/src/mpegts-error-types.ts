/**
 * The point types of mpegts-errors: every problem type the TS parser
 * reports, and the ETSI TR 101 290 timing indicators the check computes.
 * The detail endpoint's `types` filter accepts exactly these.
 */
import { TS_ERROR_TYPES } from '@klvscope/core';

/** The TR 101 290 priority 1 and 2 timing indicators, by the names the check gives their points. */
export const TR_101_290_INDICATOR_TYPES = [
  /** 1.3.a PAT_error: no PAT for too long. */
  'pat-missing',
  /** 1.5.a PMT_error: no PMT on a PMT PID for too long. */
  'pmt-missing',
  /** 1.6 PID_error: a PID the PMT names gives no sign of life for too long. */
  'pid-missing',
  /** 2.3a PCR_repetition_error. */
  'pcr-repetition',
  /** 2.3b PCR_discontinuity_indicator_error. */
  'pcr-discontinuity',
  /** 2.4 PCR_accuracy_error. */
  'pcr-accuracy',
  /** 2.5 PTS_error. */
  'pts-repetition',
] as const;

export type Tr101290IndicatorType = (typeof TR_101_290_INDICATOR_TYPES)[number];

/** Every type a point of mpegts-errors may have. */
export const MPEGTS_ERROR_POINT_TYPES: readonly string[] = Object.freeze([...TS_ERROR_TYPES, ...TR_101_290_INDICATOR_TYPES]);
