/**
 * How the viewer plays the live stream with mpegts.js: live, no stash
 * buffer, latency chasing back to 0.3 s once it passes 1.5 s, and playing
 * once START_BUFFER_S is buffered. The benchmark's glass-to-glass page plays
 * with the same settings (bench/stream-glass-page.mjs).
 */
import type mpegts from 'mpegts.js';

/**
 * Video buffered before playing starts, seconds: enough for a frame's
 * metadata to arrive before the frame is shown (the module sends a packet
 * once decoded, a PCR interval after its bytes: 40 ms or so), little enough
 * to keep glass-to-glass latency low (it adds to it one for one).
 */
export const START_BUFFER_S = 0.3;

export function livePlayerConfig(customLoader: mpegts.CustomLoaderConstructor): mpegts.Config {
  return {
    customLoader,
    // A custom loader runs on the main thread only.
    enableWorker: false,
    enableStashBuffer: false,
    isLive: true,
    liveBufferLatencyChasing: true,
    liveBufferLatencyMaxLatency: 1.5,
    liveBufferLatencyMinRemain: 0.3,
    autoCleanupSourceBuffer: true,
    lazyLoad: false,
  };
}
