import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ffmpegOrSkip, makeClip } from '../../../test-support/ffmpeg-clips.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { tempFolder } from './temp-folder.js';

/** The payload bytes of PID 0x100 (ffmpeg's video PID) in the file: what a pass of it carries. */
function videoPayloadBytes(path: string): number {
  const bytes = readFileSync(path);
  let total = 0;
  for (let pos = 0; pos + 188 <= bytes.length; pos += 188) {
    if ((((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2]) !== 0x100 || (bytes[pos + 3] & 0x10) === 0) continue;
    total += 184 - (bytes[pos + 3] & 0x20 ? 1 + bytes[pos + 4] : 0);
  }
  return total;
}

describe('the videoBitrate of /info', function () {
  this.timeout(60_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('reports the measured bitrate of video passed through, not the configured figure of the encoder', async function () {
    const ffmpeg = ffmpegOrSkip(this);
    const dir = tempFolder('video-bitrate');
    const clip = makeClip(ffmpeg, dir, 'h264', { codec: 'h264', seconds: 4, size: '640x360', videoBitrate: 800_000, klv: true });
    // 100 frames at 25 per second.
    const expected = (videoPayloadBytes(clip) * 8) / 4;
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: pathToFileURL(clip).href, videoBitrate: 2_000_000 } });
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const info = (await (await fetch(`${server.url}/info`)).json()) as { videoBitrate: number; videoPassThrough: boolean };
    expect(info.videoPassThrough).to.equal(true);
    expect(Number.isInteger(info.videoBitrate)).to.equal(true);
    expect(info.videoBitrate / expected).to.be.within(0.85, 1.15);
  });
});
