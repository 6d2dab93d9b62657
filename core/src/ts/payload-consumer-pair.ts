/**
 * Two PES payload consumers behind the demuxer's one hook (the KLV carriage
 * and the analyze pass's video details): each wants its own streams and is
 * handed only their payloads.
 */
import type { ElementaryStream } from '../kernel/observations.js';
import type { PesPayloadConsumer } from './pes-payload-consumer.js';

/** What `consumer` wants of each payload of `stream`: nothing when it does not want the stream. */
function prefixOf(consumer: PesPayloadConsumer, stream: ElementaryStream): number {
  return consumer.wants(stream) ? (consumer.prefixBytes?.(stream) ?? Infinity) : 0;
}

export function payloadConsumerPair(first: PesPayloadConsumer, second: PesPayloadConsumer | undefined): PesPayloadConsumer {
  if (!second) return first;
  return {
    wants: (stream: ElementaryStream) => first.wants(stream) || second.wants(stream),
    // Both wanting the stream: the larger of their prefixes.
    prefixBytes: (stream: ElementaryStream) => Math.max(prefixOf(first, stream), prefixOf(second, stream)),
    payload: (pes, stream, payload, complete, emit) => {
      if (first.wants(stream)) first.payload(pes, stream, cut(payload, prefixOf(first, stream)), complete, emit);
      if (second.wants(stream)) second.payload(pes, stream, cut(payload, prefixOf(second, stream)), complete, emit);
    },
    end: () => {
      first.end?.();
      second.end?.();
    },
  };
}

/** Each consumer is handed no more than it asked for, though the other asked for more. */
function cut(payload: Uint8Array, prefix: number): Uint8Array {
  return payload.length > prefix ? payload.subarray(0, prefix) : payload;
}
