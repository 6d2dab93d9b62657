/**
 * The built-in demo source: the test-pattern clip kept in the gateway's
 * assets (made once by scripts/make-demo-clip.sh) looped by core's demo
 * stream with synchronous ST 0601 KLV along an orbit, paced by its PCR like
 * any file. Needs no network and no ffmpeg.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createDemoStream, TS_PACKET_SIZE } from '@klvscope/core';
import { openPacedTsSource, type LiveSource } from '@klvscope/adapters';

export const DEMO_SOURCE_URL = 'demo://built-in';

let clip: Promise<Uint8Array> | null = null;

/** The clip's path, through the gateway's own package (the same from the sources and from the bundled CLI). */
export function demoClipPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@klvscope/gateway/package.json')), 'assets', 'demo-clip.h264');
}

export async function openDemoSource(): Promise<LiveSource> {
  clip ??= readFile(demoClipPath()).then((bytes) => new Uint8Array(bytes));
  const bytes = await clip;
  return openPacedTsSource(DEMO_SOURCE_URL, {
    name: 'the built-in demo',
    totalBytes: Infinity,
    layout: { size: TS_PACKET_SIZE, firstSync: 0 },
    chunks: (signal) => demoChunks(bytes, signal),
  });
}

/** The endless demo stream as the replay reads a file: chunks with their offsets, until aborted. */
function* demoChunks(clipBytes: Uint8Array, signal: AbortSignal | undefined): Generator<{ offset: number; bytes: Uint8Array }> {
  let offset = 0;
  for (const chunk of createDemoStream(clipBytes)) {
    if (signal?.aborted) return;
    yield { offset, bytes: chunk };
    offset += chunk.length;
  }
}
