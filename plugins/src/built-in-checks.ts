/**
 * The built-in checks, in the order of the inspection service's detail endpoints (see detail-endpoint-ids.ts).
 * Their rule slices are built with `zod/mini`, not classic `zod`, for start-up time: it tree-shakes, where
 * classic zod's whole bundle loads (a plugin's slice may use either).
 */
import type { AnyCheck } from '@klvscope/core';
import { klvChecksumErrors } from './klv-checksum-errors.js';
import { klvDuplicateTagErrors } from './klv-duplicate-tag-errors.js';
import { klvMandatoryFieldErrors } from './klv-mandatory-field-errors.js';
import { klvPacketRateConsistency } from './klv-packet-rate-consistency.js';
import { klvRawDecodeErrors } from './klv-raw-decode-errors.js';
import { klvStreamVsKlvDrift } from './klv-stream-vs-klv-drift.js';
import { klvTimestampMonotonicity } from './klv-timestamp-monotonicity.js';
import { klvUniversalKeyErrors } from './klv-universal-key-errors.js';
import { klvUnknownTagErrors } from './klv-unknown-tag-errors.js';
import { mpegtsErrors } from './mpegts-errors.js';
import { mpegtsMaxPtsIntervals } from './mpegts-max-pts-intervals.js';
import { mpegtsPatIntervals } from './mpegts-pat-intervals.js';
import { mpegtsPcrIntervals } from './mpegts-pcr-intervals.js';
import { mpegtsPcrMonotonicity } from './mpegts-pcr-monotonicity.js';
import { mpegtsPcrPtsDrift } from './mpegts-pcr-pts-drift.js';
import { mpegtsPmtIntervals } from './mpegts-pmt-intervals.js';
import { mpegtsPsiTablePositions } from './mpegts-psi-table-positions.js';

export const BUILT_IN_CHECKS: readonly AnyCheck[] = [
  mpegtsErrors,
  mpegtsPcrIntervals,
  mpegtsPsiTablePositions,
  mpegtsPatIntervals,
  mpegtsPmtIntervals,
  mpegtsPcrMonotonicity,
  mpegtsPcrPtsDrift,
  mpegtsMaxPtsIntervals,
  klvRawDecodeErrors,
  klvUniversalKeyErrors,
  klvChecksumErrors,
  klvUnknownTagErrors,
  klvDuplicateTagErrors,
  klvMandatoryFieldErrors,
  klvTimestampMonotonicity,
  klvPacketRateConsistency,
  klvStreamVsKlvDrift,
];
