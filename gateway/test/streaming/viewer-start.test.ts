import { expect } from 'chai';
import { pathToFileURL } from 'node:url';
import { createTsDemuxer, type StreamHelloMessage } from '@klvscope/core';
import { ffmpegOrSkip, makeClip } from '../../../test-support/ffmpeg-clips.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

describe('a viewer joining a running stream', function () {
  this.timeout(60_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('starts at once at the latest key frame, not at the next one: a hello within 1.5 s where key frames come every 6 s', async function () {
    const ffmpeg = ffmpegOrSkip(this);
    const dir = tempFolder('viewer-start');
    const clip = makeClip(ffmpeg, dir, 'sparse-key-frames', { codec: 'h264', seconds: 12, keyFrameSeconds: 6, klv: true });
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: pathToFileURL(clip).href } });
    // Past the first key frame, so that the next one is about 5 s away.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const joinedAt = performance.now();
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.messages.some((m) => m.type === 'hello'), 10_000, 'a hello');
    const waitedMs = performance.now() - joinedAt;
    await viewer.until(() => viewer.bytes().length > 40 * 188, 10_000, 'bytes');
    viewer.close();
    expect(waitedMs).to.be.below(1_500);
    const hello = viewer.messages.find((m): m is StreamHelloMessage => m.type === 'hello') as StreamHelloMessage;
    const firstVideo: Array<{ pts: number | null; randomAccess: boolean }> = [];
    const demuxer = createTsDemuxer((o) => void (o.kind === 'pes' && o.pid === hello.videoPid && firstVideo.push({ pts: o.pts90kHz, randomAccess: o.randomAccess })));
    demuxer.push(viewer.bytes());
    demuxer.end();
    expect(firstVideo[0]).to.deep.equal({ pts: hello.startPts90kHz, randomAccess: true });
  });
});
