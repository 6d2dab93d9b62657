/**
 * Finds the resolution of the first video stream of a transport stream as
 * its bytes go by (a live feed, or the head of a file): the demuxer hands
 * the video PES payloads over (pes-payload-consumer.ts) until one holds a
 * readable parameter set (video-resolution.ts), then the probe stops
 * demultiplexing.
 */
import type { ElementaryStream } from '../kernel/observations.js';
import { TsDemuxer } from './demuxer.js';
import type { PesPayloadConsumer } from './pes-payload-consumer.js';
import { videoCodecOf, videoResolutionOf, type VideoResolution } from './video-resolution.js';

export class VideoResolutionProbe {
  /** The resolution once found, else null. */
  resolution: VideoResolution | null = null;
  /** PID of the stream it was read from, or -1. */
  pid = -1;
  private readonly demuxer: TsDemuxer;

  constructor() {
    const consumer: PesPayloadConsumer = {
      wants: (stream: ElementaryStream) => videoCodecOf(stream.streamType) !== null,
      payload: (_pes, stream, payload) => {
        if (this.resolution) return;
        this.resolution = videoResolutionOf(payload, stream.streamType);
        if (this.resolution) this.pid = stream.pid;
      },
    };
    this.demuxer = new TsDemuxer(() => undefined, { payloadConsumer: consumer });
  }

  /** Feeds the next bytes (any chunking, whole packets or not); returns the resolution once known. */
  push(chunk: Uint8Array): VideoResolution | null {
    if (!this.resolution) this.demuxer.push(chunk);
    return this.resolution;
  }

  /** The source ended: reads the PES still held (an unbounded one ends only at the next). */
  end(): VideoResolution | null {
    if (!this.resolution) this.demuxer.end();
    return this.resolution;
  }
}
