import { expect } from 'chai';
import { pathToFileURL } from 'node:url';
import { childProcessesNamed } from '../../../test-support/child-processes.js';
import { ffmpegOrSkip, makeClip } from '../../../test-support/ffmpeg-clips.js';
import { until } from '../../../test-support/until.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

async function noPictureReason(server: RunningStreamingServer): Promise<string | null> {
  return ((await (await fetch(`${server.url}/info`)).json()) as { noPictureReason: string | null }).noPictureReason;
}

describe('a transcoder that stalls or exits', function () {
  this.timeout(60_000);
  let server: RunningStreamingServer | null = null;
  let stopped: number[] = [];

  afterEach(async () => {
    for (const pid of stopped) process.kill(pid, 'SIGCONT');
    stopped = [];
    await server?.close();
    server = null;
  });

  it('is told in /info and in the status the viewers get, and the notice clears when it sends again', async function () {
    const ffmpeg = ffmpegOrSkip(this);
    const dir = tempFolder('transcoder-failure');
    const clip = makeClip(ffmpeg, dir, 'hevc', { codec: 'hevc', seconds: 2, klv: true });
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: pathToFileURL(clip).href, transcoderStallMs: 1_000 } });
    const running = server;
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.bytes().length > 20 * 188, 20_000, 'transcoded bytes');
    const [transcoder] = childProcessesNamed('ffmpeg');
    expect(transcoder).to.be.a('number');
    process.kill(transcoder, 'SIGSTOP');
    stopped = [transcoder];
    await until('a reason in /info', 5_000, async () => (await noPictureReason(running)) !== null);
    expect(await noPictureReason(running)).to.match(/^the transcoder \(ffmpeg\) has sent nothing for \d+\.\d s while the source sends: it stalled$/);
    await viewer.until(() => viewer.messages.some((m) => m.type === 'status' && m.noPictureReason?.endsWith('it stalled') === true), 3_000, 'the stall in a status message');
    process.kill(transcoder, 'SIGCONT');
    stopped = [];
    await until('the reason cleared', 5_000, async () => (await noPictureReason(running)) === null);
    process.kill(transcoder, 'SIGKILL');
    await until('the exit in /info', 5_000, async () => (await noPictureReason(running)) !== null);
    expect(await noPictureReason(running)).to.match(/^transcoding failed: .*SIGKILL/);
    await viewer.until(() => viewer.messages.some((m) => m.type === 'status' && m.noPictureReason?.startsWith('transcoding failed') === true), 3_000, 'the exit in a status message');
    viewer.close();
  });
});
