/**
 * Two PES payload consumers behind the demuxer's one hook (the KLV carriage
 * and the analyze pass's video details): each wants its own streams and is
 * handed only their payloads.
 */
import type { ElementaryStream } from '../kernel/observations.js';
import type { PesPayloadConsumer } from './pes-payload-consumer.js';

export function payloadConsumerPair(first: PesPayloadConsumer, second: PesPayloadConsumer | undefined): PesPayloadConsumer {
  if (!second) return first;
  return {
    wants: (stream: ElementaryStream) => first.wants(stream) || second.wants(stream),
    payload: (pes, stream, payload, complete, emit) => {
      if (first.wants(stream)) first.payload(pes, stream, payload, complete, emit);
      if (second.wants(stream)) second.payload(pes, stream, payload, complete, emit);
    },
    end: () => {
      first.end?.();
      second.end?.();
    },
  };
}
