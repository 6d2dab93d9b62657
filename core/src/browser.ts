/**
 * The part of core that browser code (web/) may import: the streaming
 * module's message types and the pure clock arithmetic, nothing that needs a
 * Node API. `@klvscope/core` itself also exports them; this entry lets a
 * DOM-only program typecheck and bundle without Node.
 */
export { PTS_HZ, PTS_MODULUS, ptsDelta90kHz, readTimestamp90kHz } from './ts/clock.js';
export { VIEWER_LIMIT_CLOSE_CODE } from './stream/stream-messages.js';
export { frameKlvValues } from './stream/frame-klv-values.js';
export type { KlvItem } from './kernel/observations.js';
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
