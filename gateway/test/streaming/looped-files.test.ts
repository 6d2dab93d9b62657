import { expect } from 'chai';
import { pathToFileURL } from 'node:url';
import { createTsDemuxer, type StreamHelloMessage, type StreamKlvMessage } from '@klvscope/core';
import { ffmpegOrSkip, makeClip, type ClipCodec } from '../../../test-support/ffmpeg-clips.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

interface ViewerTimeline {
  /** The video PES time stamps in arrival order, in 90 kHz ticks. */
  videoPts: number[];
  continuityErrors: number;
}

function timelineOf(bytes: Uint8Array, videoPid: number): ViewerTimeline {
  const videoPts: number[] = [];
  let continuityErrors = 0;
  const demuxer = createTsDemuxer((o) => {
    if (o.kind === 'pes' && o.pid === videoPid && o.pts90kHz !== null) videoPts.push(o.pts90kHz);
    if (o.kind === 'ts-error' && o.type === 'continuity-error') continuityErrors++;
  });
  demuxer.push(bytes);
  demuxer.end();
  return { videoPts, continuityErrors };
}

/** How many times the sequence goes back (a loop's wrap seen by the viewer). */
function stepsBack(values: number[]): number {
  let back = 0;
  for (let i = 1; i < values.length; i++) if (values[i] <= values[i - 1]) back++;
  return back;
}

describe('short files looped by the streaming module', function () {
  this.timeout(60_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  const cases: Array<{ codec: ClipCodec; pixelFormat?: string; transcoded: boolean }> = [
    { codec: 'h264', transcoded: false },
    { codec: 'mpeg2', transcoded: true },
    { codec: 'hevc', pixelFormat: 'gbrp', transcoded: true },
  ];
  for (const { codec, pixelFormat, transcoded } of cases) {
    it(`keeps a 1 s ${codec}${pixelFormat ? ` ${pixelFormat}` : ''} clip with KLV playing across four wraps: time stamps only forward, no continuity error, KLV with its PTS and its ST 0601 time going on`, async function () {
      const ffmpeg = ffmpegOrSkip(this);
      const dir = tempFolder('looped');
      const clip = makeClip(ffmpeg, dir, `loop-${codec}`, { codec, pixelFormat, seconds: 1, klv: true });
      server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: pathToFileURL(clip).href } });
      const viewer = await connectViewer(server.url);
      const hello = (): StreamHelloMessage | undefined => viewer.messages.find((m): m is StreamHelloMessage => m.type === 'hello');
      // 25 frames a pass: over 100 is more than four passes after the viewer's start.
      await viewer.until(() => {
        const started = hello();
        return started !== undefined && started.videoPid !== null && timelineOf(viewer.bytes(), started.videoPid).videoPts.length > 110;
      }, 30_000, 'over 110 video frames');
      viewer.close();
      const { videoPid, noPictureReason } = hello() as StreamHelloMessage;
      expect(noPictureReason).to.equal(null);
      const timeline = timelineOf(viewer.bytes(), videoPid as number);
      expect(stepsBack(timeline.videoPts)).to.equal(0);
      // 25 frames a second: 110 frames span over 4 s of stream time.
      expect((timeline.videoPts[110] - timeline.videoPts[0]) / 90_000).to.be.within(4.3, 4.5);
      expect(timeline.continuityErrors).to.equal(0);
      const klv = viewer.messages.filter((m): m is StreamKlvMessage => m.type === 'klv');
      expect(klv.length).to.be.greaterThan(75);
      expect(klv.every((m) => m.pts90kHz !== null)).to.equal(true);
      expect(stepsBack(klv.map((m) => m.pts90kHz as number))).to.equal(0);
      // ST 0601 time goes on across the wraps too, moved with the PTS (their difference stays the file's), each checksum made again.
      const micros = klv.map((m) => m.values.timestampMicros as number);
      expect(stepsBack(micros)).to.equal(0);
      expect(klv.filter((m) => m.checksumValid !== true)).to.deep.equal([]);
      const timeAheadOfPts = klv.map((m, i) => micros[i] - Math.round(((m.pts90kHz as number) * 1000) / 90));
      expect(Math.max(...timeAheadOfPts) - Math.min(...timeAheadOfPts)).to.be.at.most(1);
      const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
      expect(info).to.deep.include({ videoPassThrough: !transcoded, noPictureReason: null });
    });
  }
});
