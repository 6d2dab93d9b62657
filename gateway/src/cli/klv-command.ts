/**
 * `klvscope klv FILE [--raw]`: every KLV packet as one NDJSON line, items by
 * name with their units. FILE is a transport stream or a raw KLV byte stream
 * (told apart by its first bytes).
 */
import {
  DEMUXER_FACTORY,
  KlvStreamDemuxer,
  looksLikeRawKlv,
  resolveService,
  runPipeline,
  type KlvErrorObservation,
  type KlvPacketObservation,
  type MetadataPacketObservation,
  type Observation,
} from '@klvscope/core';
import { fileSize, readFileChunks, readFileHead } from '@klvscope/adapters';
import { composeApplication } from '../composition-root.js';
import { startProgress } from './progress.js';

export interface KlvOptions {
  raw?: boolean;
}

interface PacketRecord {
  packet: KlvPacketObservation;
  metadata: MetadataPacketObservation | null;
  problems: KlvErrorObservation[];
}

function toLine(record: PacketRecord, raw: boolean): string {
  const { packet, metadata } = record;
  const items: Record<string, unknown> = {};
  for (const item of metadata?.items ?? []) {
    const entry: Record<string, unknown> = { tag: item.tag, value: item.value };
    if (item.units) entry.units = item.units;
    if (item.error) entry.error = item.error;
    if (item.deprecated) entry.deprecated = true;
    if (raw) entry.rawHex = item.rawHex;
    // A name that repeats (allowed for some items) keeps every value.
    const existing = items[item.name];
    items[item.name] = existing === undefined ? entry : Array.isArray(existing) ? [...(existing as unknown[]), entry] : [existing, entry];
  }
  const line: Record<string, unknown> = {
    pid: packet.pid,
    klvIndex: packet.klvIndex,
    offset: packet.offset,
    packetIndex: packet.packetIndex,
    t: packet.t,
    pts90kHz: packet.pts90kHz,
    carriage: packet.carriage,
    key: packet.keyName ?? packet.keyHex,
    standard: metadata?.standard ?? null,
    version: metadata?.version ?? null,
    timestamp: metadata?.timestampMicros != null ? new Date(metadata.timestampMicros / 1000).toISOString() : null,
    timestampMicros: metadata?.timestampMicros ?? null,
    checksum: metadata?.checksum ?? null,
    items,
    problems: record.problems.map((p) => ({ type: p.type, severity: p.severity, tag: p.tag, message: p.message })),
  };
  if (raw) line.rawHex = Buffer.from(packet.raw).toString('hex');
  return JSON.stringify(line);
}

export async function runKlv(path: string, options: KlvOptions): Promise<void> {
  const total = await fileSize(path);
  const container = composeApplication();
  const tsDemuxer = resolveService(container, DEMUXER_FACTORY);
  const raw = looksLikeRawKlv(await readFileHead(path, 4));
  const out: string[] = [];
  let current: PacketRecord | null = null;
  const flush = (): void => {
    if (current) out.push(toLine(current, options.raw ?? false));
    current = null;
    // Write in batches: one write per packet would cost more than decoding it.
    if (out.length >= 256) process.stdout.write(`${out.splice(0).join('\n')}\n`);
  };
  const observe = (o: Observation): void => {
    if (o.kind === 'klv-packet') {
      flush();
      current = { packet: o, metadata: null, problems: [] };
    } else if (o.kind === 'metadata-packet' && current && o.pid === current.packet.pid && o.klvIndex === current.packet.klvIndex) {
      current.metadata = o;
    } else if (o.kind === 'klv-error') {
      if (current && o.pid === current.packet.pid && o.klvIndex === current.packet.klvIndex) current.problems.push(o);
      else process.stderr.write(`klvscope: ${o.type} at offset ${o.offset}: ${o.message}\n`);
    }
  };
  const progress = startProgress('Decoding KLV', total);
  try {
    await runPipeline(readFileChunks(path), {
      checks: [],
      observationSinks: [observe],
      sinkKinds: ['klv-packet', 'metadata-packet', 'klv-error'],
      demuxerFactory: raw ? (sink, made) => new KlvStreamDemuxer(sink, made) : tsDemuxer,
      onProgress: (done) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
  flush();
  if (out.length) process.stdout.write(`${out.join('\n')}\n`);
}
