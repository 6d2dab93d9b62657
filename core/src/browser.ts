/**
 * The part of core that browser code (web/) may import: the streaming
 * module's message types, and nothing that needs a Node API. `@klvscope/core`
 * itself also exports them; this entry lets a DOM-only program typecheck
 * without Node's types.
 */
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
