/**
 * The synthetic transport stream generator: a constant-bitrate single
 * program (PAT, PMT, video with the PCR, optional audio, extra streams such
 * as KLV metadata, null packets), with faults injected on request and
 * returned as ground truth.
 *
 * Clocks (see cbr-clock.ts): the PCR of output packet n is
 * initialPcr27MHz + (n * 188 + 10) * 8 * 27e6 / bitrate, exact to the tick,
 * wrapped at 2^33 * 300. PTS/DTS are the 90 kHz clock at the first byte
 * (initialPcr27MHz / 300) plus each unit's own time, which for video and
 * audio is its arrival time plus the decoder delay, wrapped at 2^33.
 */
import { writePcr, PCR_OFFSET_IN_PACKET } from './adaptation-field-writer.js';
import { writeArrivalTimestamp } from './arrival-timestamp-writer.js';
import { SyntheticAudioSource } from './audio-source.js';
import { BUILT_IN_FAULT_KINDS } from './built-in-fault-kinds.js';
import { CbrClock, wrapPcr27MHz } from './cbr-clock.js';
import { descriptorLoop } from './descriptor-writer.js';
import { ElementaryStreamChannel } from './elementary-stream-channel.js';
import type { ElementaryStreamSource } from './elementary-stream-source.js';
import type { StreamLayout } from './fault-injector.js';
import { FaultSet, resolveFaults, type ResolvedFault } from './fault-set.js';
import { checkVideoBitrate, resolveGeneratorOptions, type GeneratorOptions, type ResolvedGeneratorOptions } from './generator-options.js';
import { GeneratorError } from './generator-error.js';
import { checkKlvFaultsHaveStream, KlvSource } from './klv-source.js';
import type { InjectedFault } from './injected-fault.js';
import { TS_PACKET_SIZE } from '../ts/ts-packet.js';
import { TS_PAYLOAD_SIZE } from './packet-header-writer.js';
import { PacketInfo } from './packet-info.js';
import { PAT_PID, writePatSection } from './pat-section-writer.js';
import { writePmtSection } from './pmt-section-writer.js';
import { PsiCarousel } from './psi-carousel.js';
import { SeededRandom } from './seeded-random.js';
import { TransportStreamMux } from './transport-stream-mux.js';
import { SyntheticVideoSource } from './video-source.js';

export interface GeneratedStream {
  /**
   * The stream, in chunks of `chunkBytes` rounded down to whole packets (one
   * packet less when faults may duplicate one), each a fresh array, made as
   * they are asked for. Every call starts a new, identical run. Throws
   * GeneratorError ERR_FAULT_NOT_PLACED at the end if a fault found no packet
   * to act on. An endless stream (durationSeconds Infinity) never ends.
   */
  chunks(): IterableIterator<Uint8Array>;
  /** Ground truth of the latest run, in the order of the fault specs; complete once `chunks()` is exhausted. */
  readonly faults: InjectedFault[];
  /** Packets written by the latest run (the total once `chunks()` is exhausted). */
  readonly totalPackets: number;
  /** PIDs, clocks, intervals and sizes of the stream. */
  readonly layout: StreamLayout;
}

/** Everything fixed before the first packet: sections, sources, schedule. */
interface StreamPlan {
  options: ResolvedGeneratorOptions;
  layout: StreamLayout;
  clock: CbrClock;
  totalSlots: number;
  patSection: Uint8Array;
  pmtSection: Uint8Array;
  /** Sources in multiplexing priority order: audio, extra streams, video. */
  sources: ElementaryStreamSource[];
  faults: ResolvedFault[];
  patIntervalSlots: number;
  pmtIntervalSlots: number;
  pcrIntervalSlots: number;
}

/** Slots between repetitions so that the time between two sends stays within `intervalMs` (`lateness` slots of delay allowed). */
function intervalSlots(intervalMs: number, secondsPerPacket: number, lateness: number): number {
  return Math.max(1, Math.floor(intervalMs / 1000 / secondsPerPacket + 1e-9) - lateness);
}

/** The fewest packet slots between two repetitions of a table or a PCR. */
const MIN_INTERVAL_SLOTS = 3;

function packetsForSection(section: Uint8Array): number {
  return Math.ceil((section.length + 1) / TS_PAYLOAD_SIZE);
}

function planStream(options: GeneratorOptions): StreamPlan {
  const r = resolveGeneratorOptions(options);
  const clock = new CbrClock(r.bitrate, r.initialPcr27MHz);
  const totalSlots = Math.max(1, Math.ceil((r.durationSeconds * r.bitrate) / (TS_PACKET_SIZE * 8) - 1e-9));
  const audio = r.audio ? new SyntheticAudioSource({ pid: r.audioPid, bitrate: r.audioBitrate }) : null;
  // The KLV stream's PTS follow the video's presentation time line, which B-frames delay by one frame.
  const klv = r.klv
    ? new KlvSource(r.klv, { programNumber: r.programNumber, videoReorderFrames: r.bFrames > 0 ? 1 : 0, durationSeconds: r.durationSeconds })
    : null;
  const extraSources = klv ? [klv, ...r.extraStreams] : r.extraStreams;
  checkKlvFaultsHaveStream(r.faults, extraSources);

  const patSection = writePatSection({ transportStreamId: r.transportStreamId, programs: [{ programNumber: r.programNumber, pid: r.pmtPid }] });
  const pmtStreams = [{ streamType: r.videoStreamType, elementaryPid: r.videoPid }];
  if (audio) pmtStreams.push({ streamType: audio.streamType, elementaryPid: audio.pid });
  const extraStreams = extraSources.map((s) => ({ streamType: s.streamType, elementaryPid: s.pid, descriptors: s.descriptors }));
  const pmtSection = writePmtSection({
    programNumber: r.programNumber,
    pcrPid: r.pcrPid,
    programDescriptors: descriptorLoop(...extraSources.map((s) => s.programDescriptors ?? new Uint8Array(0))),
    streams: [...pmtStreams, ...extraStreams],
  });

  // The PCR goes first in its slot and delays a table by one slot, the PAT the PMT by one more.
  const spp = clock.secondsPerPacket;
  const patIntervalSlots = intervalSlots(r.patIntervalMs, spp, 2);
  const pmtIntervalSlots = intervalSlots(r.pmtIntervalMs, spp, 2);
  const pcrIntervalSlots = intervalSlots(r.pcrIntervalMs, spp, 0);
  for (const [name, ms, slots] of [['patIntervalMs', r.patIntervalMs, patIntervalSlots], ['pmtIntervalMs', r.pmtIntervalMs, pmtIntervalSlots], ['pcrIntervalMs', r.pcrIntervalMs, pcrIntervalSlots]] as const) {
    // Anything repeated every few packets would starve the rest of the stream.
    if (slots < MIN_INTERVAL_SLOTS) {
      throw new GeneratorError('ERR_GENERATOR_OPTIONS', `${name} ${ms} is too short for ${r.bitrate} bits/s: at least ${Math.ceil((MIN_INTERVAL_SLOTS + 2) * spp * 1000)} ms needed`);
    }
  }

  // What is left for video once tables, PCR-only packets, audio and extra streams have theirs.
  const packetBits = TS_PACKET_SIZE * 8;
  const psiBps = (packetsForSection(patSection) / patIntervalSlots + packetsForSection(pmtSection) / pmtIntervalSlots) * r.bitrate;
  const pcrBps = r.bitrate / pcrIntervalSlots;
  const audioBps = audio ? Math.ceil((audio.maxFrameBytes + 14) / TS_PAYLOAD_SIZE) * packetBits * (48_000 / 1024) : 0;
  const extraBps = extraSources.reduce((sum, s) => sum + (s.nominalBitrate ?? 0) * 1.1 * (TS_PACKET_SIZE / TS_PAYLOAD_SIZE), 0);
  const room = ((r.bitrate - psiBps - pcrBps - audioBps - extraBps) * TS_PAYLOAD_SIZE) / TS_PACKET_SIZE;
  const videoBitrate = r.videoSource ? (r.videoSource.nominalBitrate ?? 0) : (r.videoBitrate ?? 0.8 * room);
  checkVideoBitrate(videoBitrate, room);
  const video =
    r.videoSource ??
    new SyntheticVideoSource({
      pid: r.videoPid,
      streamType: r.videoStreamType,
      frameRate: r.videoFrameRate,
      gopLength: r.gopLength,
      bFrames: r.bFrames,
      bitrate: videoBitrate,
      timestamps: r.videoPts,
    });
  const sources: ElementaryStreamSource[] = [...(audio ? [audio] : []), ...extraSources, video];

  const layout: StreamLayout = {
    packetSize: r.packetSize,
    prefixSize: r.packetSize === 192 ? 4 : 0,
    bitrate: r.bitrate,
    durationSeconds: r.durationSeconds,
    transportStreamId: r.transportStreamId,
    programNumber: r.programNumber,
    pmtPid: r.pmtPid,
    pcrPid: r.pcrPid,
    videoPid: r.videoPid,
    audioPid: audio ? audio.pid : null,
    elementaryPids: [video.pid, ...(audio ? [audio.pid] : []), ...extraSources.map((s) => s.pid)],
    patIntervalMs: r.patIntervalMs,
    pmtIntervalMs: r.pmtIntervalMs,
    pcrIntervalMs: r.pcrIntervalMs,
    initialPcr27MHz: r.initialPcr27MHz,
    decoderDelayMs: r.decoderDelayMs,
    videoFrameRate: r.videoFrameRate,
  };
  const faults = resolveFaults(r.faults, [...BUILT_IN_FAULT_KINDS, ...r.faultKinds], layout, sources);
  return { options: r, layout, clock, totalSlots, patSection, pmtSection, sources, faults, patIntervalSlots, pmtIntervalSlots, pcrIntervalSlots };
}

/** Creates a generator; checks the options and faults now (GeneratorError), writes nothing yet. */
export function createGenerator(options: GeneratorOptions): GeneratedStream {
  const plan = planStream(options);
  let faults: FaultSet | null = null;
  let totalPackets = 0;

  function* run(): Generator<Uint8Array, void, undefined> {
    const { options: r, clock, layout } = plan;
    const runFaults = new FaultSet(plan.faults, layout);
    faults = runFaults;
    totalPackets = 0;
    const random = new SeededRandom(r.seed);
    const context = {
      durationSeconds: r.durationSeconds,
      bitrate: r.bitrate,
      decoderDelay90kHz: Math.round((r.decoderDelayMs / 1000) * 90_000),
      videoFrameRate: r.videoFrameRate,
      programNumber: r.programNumber,
    };
    for (const source of plan.sources) source.start({ ...context, random: random.fork(source.pid) });
    const channels = plan.sources.map((s) => new ElementaryStreamChannel(s, clock.initialStc90kHz, runFaults));
    const patPackets = packetsForSection(plan.patSection);
    const carousels = [
      new PsiCarousel(PAT_PID, plan.patSection, plan.patIntervalSlots, 0),
      new PsiCarousel(r.pmtPid, plan.pmtSection, plan.pmtIntervalSlots, patPackets),
    ];
    const mux = new TransportStreamMux(
      {
        clock,
        totalSlots: plan.totalSlots,
        carousels,
        channels,
        pcrChannel: channels.find((c) => c.pid === r.pcrPid) as ElementaryStreamChannel,
        pcrIntervalSlots: plan.pcrIntervalSlots,
        firstPcrSlot: patPackets + packetsForSection(plan.pmtSection),
      },
      runFaults,
    );

    const size = r.packetSize;
    const prefix = layout.prefixSize;
    const capacity = Math.floor(r.chunkBytes / size) * size;
    // Zero-filled once: the 204-byte parity bytes are never written and stay 0.
    const chunk = new Uint8Array(capacity);
    const info = new PacketInfo();
    const watch = runFaults.watchesPackets;
    let pos = 0;
    let out = 0;
    for (let slot = 0; slot < plan.totalSlots; slot++) {
      const sync = pos + prefix;
      info.reset(out, out * size + prefix, slot * clock.secondsPerPacket);
      mux.writeSlot(slot, chunk, sync, info);
      if (prefix !== 0) writeArrivalTimestamp(chunk, pos, clock.arrivalAtPacket27MHz(out));
      if (watch) {
        const fate = runFaults.onPacket(info, chunk, sync);
        if (fate === 'drop') continue;
        if (fate === 'duplicate') {
          chunk.copyWithin(pos + size, pos, pos + size);
          pos += size;
          out++;
          if (prefix !== 0) writeArrivalTimestamp(chunk, pos, clock.arrivalAtPacket27MHz(out));
          // ISO 13818-1 2.4.3.3: a duplicate repeats every byte but a PCR, which must be valid for its own position.
          if (info.hasPcr) writePcr(chunk, pos + prefix + PCR_OFFSET_IN_PACKET, wrapPcr27MHz(clock.pcrAtPacket(out) + info.pcrShift27MHz));
        }
      }
      pos += size;
      out++;
      totalPackets = out;
      // Room for one more packet, and its duplicate when a fault may repeat it.
      if (pos + (watch ? 2 : 1) * size > capacity) {
        yield chunk.slice(0, pos);
        pos = 0;
      }
    }
    if (pos > 0) yield chunk.slice(0, pos);
    runFaults.finish();
  }

  return {
    chunks: () => run(),
    get faults() {
      return faults ? faults.results() : [];
    },
    get totalPackets() {
      return totalPackets;
    },
    layout: plan.layout,
  };
}

/** The whole stream in one array, with its ground truth: for small streams in tests. */
export function generateTransportStream(options: GeneratorOptions): { bytes: Uint8Array; faults: InjectedFault[]; layout: StreamLayout } {
  const stream = createGenerator(options);
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const part of stream.chunks()) {
    parts.push(part);
    length += part.length;
  }
  const bytes = new Uint8Array(length);
  let p = 0;
  for (const part of parts) {
    bytes.set(part, p);
    p += part.length;
  }
  return { bytes, faults: stream.faults, layout: stream.layout };
}
