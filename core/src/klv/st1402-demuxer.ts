/** The demuxer factory for KLV-aware runs: the MPEG-TS demuxer with MISB ST 1402 carriage. */
import type { DemuxerFactory } from '../kernel/demuxer-factory.js';
import { TsDemuxer } from '../ts/demuxer.js';
import { payloadConsumerPair } from '../ts/payload-consumer-pair.js';
import { St1402Carriage } from './st1402-carriage.js';

export const createKlvAwareTsDemuxer: DemuxerFactory = (sink, options) => new TsDemuxer(sink, { payloadConsumer: payloadConsumerPair(new St1402Carriage(options), options?.extraPayloadConsumer) });
