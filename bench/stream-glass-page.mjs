// The page of bench:stream's glass-to-glass measure (stream-glass.mjs bundles it with esbuild and
// opens it in headless Chromium): it plays the module's /stream socket with mpegts.js through the
// viewer's own socket loader (web/src/viewer/stream-loader.ts) and with the viewer's player
// settings (web/src/viewer/player-settings.ts: live, no stash buffer, latency chasing, playing once
// its start buffer is filled, or ?startBufferS=), and for every frame put on screen
// (requestVideoFrameCallback) takes the metadata packet with that frame's PTS (ST 1402 synchronous
// KLV: one per frame) and keeps Date.now() minus its ST 0601 item 2 (the wall clock at the frame's
// capture, written by the sender). A frame whose packet has not come yet waits for it (up to 2 s).
// Results in window.glassToGlass. The viewer's page itself (panels, map) is not used.
import mpegts from 'mpegts.js';
import { livePlayerConfig, START_BUFFER_S as VIEWER_START_BUFFER_S } from '../web/src/viewer/player-settings.ts';
import { streamLoaderFor } from '../web/src/viewer/stream-loader.ts';

const params = new URLSearchParams(location.search);
/** Video buffered before playing starts: the viewer's unless the page is told otherwise. */
const START_BUFFER_S = Number(params.get('startBufferS') ?? VIEWER_START_BUFFER_S);
const PENDING_MS = 2_000;
/** Metadata packets kept by PTS (ms), and latencies kept, at most: a bounded page. */
const MAX_KLV = 2_000;
const MAX_SAMPLES = 100_000;

/** samples: [shown at (ms since 1970), glass-to-glass ms, video buffered ahead of the frame ms] per frame matched. */
const results = { frames: 0, matched: 0, unmatched: 0, samples: [], error: null, closeCode: null };
window.glassToGlass = results;

const socketUrl = params.get('socket');
/** floor(PTS / 90) -> item 2 (µs since 1970): mpegts.js keeps time stamps in whole ms. */
const itemTwoByPtsMs = new Map();
/** Frames shown before their packet came: { frameMs, shownAtMs, aheadMs }. */
let pending = [];
let startPts90kHz = null;

function itemTwoNear(frameMs) {
  for (const key of [frameMs, frameMs - 1, frameMs + 1]) {
    const micros = itemTwoByPtsMs.get(key);
    if (micros !== undefined) return micros;
  }
  return undefined;
}

function record(frame, micros) {
  results.matched++;
  if (results.samples.length < MAX_SAMPLES) results.samples.push([frame.shownAtMs, frame.shownAtMs - micros / 1000, frame.aheadMs]);
}

function onMessage(message) {
  if (message.type === 'hello') startPts90kHz = message.startPts90kHz;
  if (message.type !== 'klv' || message.pts90kHz === null || message.values.timestampMicros === null) return;
  itemTwoByPtsMs.set(Math.floor(message.pts90kHz / 90), message.values.timestampMicros);
  if (itemTwoByPtsMs.size > MAX_KLV) itemTwoByPtsMs.delete(itemTwoByPtsMs.keys().next().value);
  const now = Date.now();
  pending = pending.filter((frame) => {
    const micros = itemTwoNear(frame.frameMs);
    if (micros !== undefined) record(frame, micros);
    else if (now - frame.shownAtMs > PENDING_MS) results.unmatched++;
    else return true;
    return false;
  });
}

const video = document.querySelector('video');
const player = mpegts.createPlayer(
  { type: 'mpegts', isLive: true, url: socketUrl },
  // The viewer's own loader (TS bytes to mpegts.js, the JSON messages to this page) and settings.
  livePlayerConfig(streamLoaderFor({ onMessage, onBytes: () => undefined, onClose: (code) => (results.closeCode = code) })),
);
player.on(mpegts.Events.ERROR, (type, detail) => (results.error = `${type}: ${detail}`));
player.attachMediaElement(video);
player.load();
const startWhenBuffered = setInterval(() => {
  const buffered = video.buffered;
  if (buffered.length === 0 || buffered.end(buffered.length - 1) - video.currentTime < START_BUFFER_S) return;
  clearInterval(startWhenBuffered);
  video.play().catch((error) => (results.error = `play: ${error.message}`));
}, 50);

// Media time to PTS as the viewer maps it (web/src/viewer/pts-clock.ts): mpegts.js rebases time stamps, in whole ms,
// on the first access unit, whose PTS the hello gives; the video buffer starts at that unit's media time.
let firstFrameMediaTimeS = null;
const onVideoFrame = (_now, metadata) => {
  const shownAtMs = Date.now();
  results.frames++;
  firstFrameMediaTimeS ??= video.buffered.length > 0 ? video.buffered.start(0) : metadata.mediaTime;
  if (startPts90kHz !== null) {
    const frameMs = Math.floor(startPts90kHz / 90) + Math.round((metadata.mediaTime - firstFrameMediaTimeS) * 1000);
    // Video held by the player ahead of this frame: the part of the latency that is the player's own buffer.
    const buffered = video.buffered;
    const aheadMs = buffered.length > 0 ? Math.max(0, buffered.end(buffered.length - 1) - metadata.mediaTime) * 1000 : 0;
    const frame = { frameMs, shownAtMs, aheadMs };
    const micros = itemTwoNear(frameMs);
    if (micros !== undefined) record(frame, micros);
    else pending.push(frame);
  }
  video.requestVideoFrameCallback(onVideoFrame);
};
video.requestVideoFrameCallback(onVideoFrame);
