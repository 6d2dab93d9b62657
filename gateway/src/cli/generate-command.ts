/**
 * `klvscope generate OUT.ts ...`: a synthetic stream with injected faults.
 * The ground truth (each fault's PID, packet index and offset) is printed,
 * and written as JSON with --truth FILE. The file appears whole or not at all.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { createGenerator, H264ClipSource, parseFaultSpec, type GeneratorOptions } from '@klvscope/core';
import { demoClipPath } from '../streaming/demo-source.js';
import { count } from './inventory-text.js';
import { startProgress } from './progress.js';
import { UsageError } from './usage-error.js';

export interface GenerateCliOptions {
  duration: number;
  bitrate: number;
  packetSize: number;
  audio?: boolean;
  seed: number;
  fault: string[];
  truth?: string;
  /** KLV carriage: 'sync' or 'async'; no KLV stream when absent. */
  klv?: string;
  klvRate: number;
  klvPts?: boolean;
  /** Video of real pictures (the streaming module's demo H.264 clip) instead of units that carry none. */
  picture?: boolean;
}

function klvOptionsOf(options: GenerateCliOptions): GeneratorOptions['klv'] {
  if (options.klv === undefined) return undefined;
  if (options.klv !== 'sync' && options.klv !== 'async') throw new UsageError(`--klv must be sync or async, got '${options.klv}'`);
  // Synchronous carriage always has PTS (MISB ST 1402); asynchronous KLV has it when asked.
  return { carriage: options.klv, rateHz: options.klvRate, ...(options.klv === 'async' ? { pts: options.klvPts ?? false } : {}) };
}

function packetSizeOf(value: number): 188 | 192 | 204 {
  if (value === 188 || value === 192 || value === 204) return value;
  throw new UsageError(`--packet-size must be 188, 192 or 204, got ${value}`);
}

export async function runGenerate(out: string, options: GenerateCliOptions): Promise<void> {
  const generatorOptions: GeneratorOptions = {
    durationSeconds: options.duration,
    bitrate: options.bitrate,
    packetSize: packetSizeOf(options.packetSize),
    audio: options.audio ?? false,
    seed: options.seed,
    faults: options.fault.map((spec) => parseFaultSpec(spec)),
    klv: klvOptionsOf(options),
    // The generator's own video units carry no picture (they test the transport): a browser shows a decoder error for them.
    ...(options.picture ? { videoSource: new H264ClipSource(await readFile(demoClipPath())), videoFrameRate: 30 } : {}),
  };
  const stream = createGenerator(generatorOptions);
  const expectedBytes = Math.round((options.duration * options.bitrate) / 8);
  const progress = startProgress('Generating', expectedBytes);
  await mkdir(dirname(out), { recursive: true });
  const temp = `${out}.partial`;
  const file = createWriteStream(temp);
  let written = 0;
  try {
    for (const chunk of stream.chunks()) {
      written += chunk.length;
      progress.update(written);
      if (!file.write(chunk)) await once(file, 'drain');
    }
    file.end();
    await once(file, 'finish');
    await rename(temp, out);
  } catch (error) {
    file.destroy();
    await rm(temp, { force: true });
    throw error;
  } finally {
    progress.stop();
  }
  process.stdout.write(`wrote ${out}: ${count(stream.totalPackets)} packets, ${(written / 1e6).toFixed(1)} MB, ${options.duration} s at ${options.bitrate} b/s\n`);
  for (const f of stream.faults) {
    process.stdout.write(`  fault ${f.kind} at ${f.atSeconds} s: PID 0x${f.pid.toString(16).padStart(4, '0')}, packet ${f.packetIndex}, offset ${f.offset}\n`);
  }
  if (options.truth) await writeFile(options.truth, `${JSON.stringify({ file: out, options: generatorOptions, faults: stream.faults }, null, 2)}\n`);
}
