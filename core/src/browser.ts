/**
 * The part of core that browser code (web/) may import: the streaming
 * module's message types and the pure clock arithmetic, nothing that needs a
 * Node API. `@klvscope/core` itself also exports them; this entry lets a
 * DOM-only program typecheck and bundle without Node.
 */
export { PCR_HZ, PCR_MODULUS, PTS_HZ, PTS_MODULUS, pcrDelta27MHz, ptsDelta90kHz, readTimestamp90kHz } from './ts/clock.js';
export { isVideoStreamType } from './ts/stream-types.js';
export { VIEWER_LIMIT_CLOSE_CODE } from './stream/stream-messages.js';
export { frameKlvValues } from './stream/frame-klv-values.js';
// The KLV framing and decoders (pure, on Uint8Array): the dashboard's packet view lays a packet's items over its bytes.
export { readKlvTriplet } from './klv/klv-triplet.js';
export { parseLocalSet } from './klv/local-set.js';
export { parseUniversalSet } from './klv/universal-set.js';
export { metadataItemsOfTriplet } from './klv/klv-packet-observer.js';
export { hexToBytes } from './klv/hex.js';
export type { KlvItem, KlvPacketObservation } from './kernel/observations.js';
export type { PidBitrate, PidBitrateSeries } from './ts/pid-bitrate-series.js';
export type {
  FrameKlvValues,
  RecorderStateName,
  RecorderStatus,
  SourceState,
  SourceStatus,
  StreamHelloMessage,
  StreamKlvMessage,
  StreamMessage,
  StreamStatusMessage,
} from './stream/stream-messages.js';
// What the inspection service's reports are made of, for the dashboard (types only).
export type { Inventory, InventoryPid, InventoryProgram } from './ts/inventory.js';
export type { KlvPidSummary } from './klv/klv-summary.js';
export type { VideoGopStructure, VideoStreamDetails } from './ts/video-details.js';
export type { CheckSummary, ValueStatistics, Verdict } from './kernel/check-summary.js';
export type { Point } from './kernel/check-point.js';
export type { ReportProblem, ReportProblemKind } from './workflow/report-problems.js';
export type { CheckStatus } from './kernel/check-run.js';
export type { ComparedCheckSide, ComparedFigure, ComparedKlvSide, ComparedPidSide, ComparedRow, ReportComparison } from './workflow/report-comparison.js';
