/**
 * The KLV metadata elementary stream: MISB ST 0601 packets along a
 * synthetic orbit (klv-flight-path.ts), carried per MISB ST 1402
 * synchronously (stream_type 0x15, one metadata AU cell per PES, ISO
 * 13818-1 2.12.4) or asynchronously (stream_type 0x06, the KLV bytes as the
 * PES payload, with or without PTS). It injects its own fault kinds
 * (klv-fault-kinds.ts) and marks the unit that carries each.
 *
 * Timing: packet k is captured at k / rateHz seconds (its ready time). Its
 * PTS is that instant on the video's presentation time line: the video's
 * decoder delay plus its reordering delay (one frame with B-frames), so at
 * the video frame rate packet k has exactly the PTS of the k-th frame in
 * display order. Item 2 (µs since 1970, ST 0601 item 2 / ST 0603) is
 * the start time plus the PTS elapsed since packet 0, rounded to the µs: the
 * metadata clock runs exactly with the video clock unless a fault says
 * otherwise.
 */
import type { AccessUnit, ElementaryStreamSource, SourceContext } from './elementary-stream-source.js';
import { FlightPath, stillFlightSample } from './klv-flight-path.js';
import { planKlvFaults, type KlvFaultPlan } from './klv-fault-plan.js';
import { formatFaultSpec, type FaultSpec } from './fault-spec.js';
import { GeneratorError } from './generator-error.js';
import { checkKlvFaultSpec, isKlvFaultKind, klvFaultExpectation, type KlvFaultContext, type KlvFaultRequest } from './klv-fault-kinds.js';
import { faultyPacket } from './klv-packet-faults.js';
import { St0601PacketWriter } from './klv-packet-writer.js';
import { resolveKlvStreamOptions, type KlvStreamOptions, type ResolvedKlvStreamOptions } from './klv-stream-options.js';
import { SeededRandom } from './seeded-random.js';
import { AU_CELL_HEADER_SIZE, writeAuCell } from './st1402-au-cell-writer.js';
import { klvStreamDeclaration, KLV_SERVICE_ID } from './st1402-stream-declaration.js';

/** What the source needs to know about the program before the generator starts it. */
export interface KlvSourceEnvironment {
  /** For the metadata_pointer_descriptor (synchronous carriage); default 1. */
  programNumber?: number;
  /** Frames between a video frame's decode and presentation order (1 with B-frames, else 0); default 0. */
  videoReorderFrames?: number;
  /** The stream's length, so fault specs are checked when accepted (else at start). */
  durationSeconds?: number;
}

const PTS_HZ = 90_000;
/** PES header bytes before the payload: 6 fixed, 3 of flags, 5 of PTS (ISO 13818-1 2.4.3.6). */
const PES_HEADER_BYTES = 9;
const PTS_BYTES = 5;
/** Per-run state, made by `start`. */
interface KlvRun {
  flight: FlightPath;
  plan: KlvFaultPlan;
  /** Infinity on an endless stream. */
  packetCount: number;
  /** Packets the plan covers (none on an endless stream: it has no faults). */
  planned: number;
  /** Video frame rate and the PTS of packet 0 (90 kHz ticks from the first byte), for the presentation time line. */
  frameRate: number;
  presentationDelay90kHz: number;
  firstPts90kHz: number;
  next: number;
  sequenceNumber: number;
}

export class KlvSource implements ElementaryStreamSource {
  readonly pid: number;
  readonly streamType: number;
  readonly streamId: number;
  readonly descriptors: Uint8Array;
  readonly programDescriptors: Uint8Array;
  readonly nominalBitrate: number;
  readonly options: ResolvedKlvStreamOptions;
  private readonly writer: St0601PacketWriter;
  private readonly reorderFrames: number;
  private readonly durationSeconds: number | null;
  private readonly requests: KlvFaultRequest[] = [];
  private run: KlvRun | null = null;

  constructor(options: KlvStreamOptions = {}, environment: KlvSourceEnvironment = {}) {
    const o = resolveKlvStreamOptions(options);
    this.options = o;
    this.pid = o.pid;
    this.streamId = o.streamId;
    this.reorderFrames = environment.videoReorderFrames ?? 0;
    this.durationSeconds = environment.durationSeconds ?? null;
    this.writer = new St0601PacketWriter({ missionId: o.missionId, version: o.st0601Version }, stillFlightSample());
    const unitBytes = this.writer.packetBytes + (o.carriage === 'sync' ? AU_CELL_HEADER_SIZE : 0) + PES_HEADER_BYTES + (o.pts ? PTS_BYTES : 0);
    this.nominalBitrate = unitBytes * 8 * o.rateHz;
    const declaration = klvStreamDeclaration(o.carriage, environment.programNumber ?? 1, this.nominalBitrate);
    this.streamType = declaration.streamType;
    this.descriptors = declaration.descriptors;
    this.programDescriptors = declaration.programDescriptors;
  }

  acceptFault(spec: FaultSpec): boolean {
    if (!isKlvFaultKind(spec.kind) || (spec.pid !== undefined && spec.pid !== this.pid)) return false;
    checkFiniteStream(spec, this.durationSeconds ?? 0);
    this.requests.push(checkKlvFaultSpec(spec, spec.kind, this.faultContext(this.durationSeconds)));
    return true;
  }

  start(context: SourceContext): void {
    const o = this.options;
    // Specs accepted before the length was known are checked against it now.
    const requests = this.requests.map((r) => {
      checkFiniteStream(r.spec, context.durationSeconds);
      return checkKlvFaultSpec(r.spec, r.kind, this.faultContext(context.durationSeconds));
    });
    const random = o.seed !== undefined ? new SeededRandom(o.seed) : context.random;
    const flight = new FlightPath(random.fork(1));
    const packetCount = Math.max(0, Math.ceil(context.durationSeconds * o.rateHz - 1e-9));
    const planned = Number.isFinite(packetCount) ? packetCount : 0;
    const run: KlvRun = {
      flight,
      plan: planKlvFaults(requests, planned, o.rateHz, random.fork(2)),
      packetCount,
      planned,
      frameRate: context.videoFrameRate,
      presentationDelay90kHz: context.decoderDelay90kHz,
      firstPts90kHz: 0,
      next: 0,
      sequenceNumber: 0,
    };
    this.run = run;
    run.firstPts90kHz = this.nominalPts90kHz(run, 0);
  }

  nextAccessUnits(upToSeconds: number): AccessUnit[] {
    const run = this.run;
    if (!run) throw new Error('KlvSource.nextAccessUnits called before start');
    const units: AccessUnit[] = [];
    const { plan } = run;
    while (run.next < run.packetCount) {
      const k = run.next;
      const inPlan = k < run.planned;
      const readySeconds = k / this.options.rateHz + (inPlan ? plan.jitterTicks[k] / PTS_HZ : 0);
      if (readySeconds > upToSeconds) break;
      run.next = k + 1;
      if (!inPlan || plan.dropped[k] === 0) units.push(this.unit(run, k, readySeconds));
    }
    return units;
  }

  /** Bytes of a clean ST 0601 packet of this stream (all have the same length). */
  get st0601PacketBytes(): number {
    return this.writer.packetBytes;
  }

  private faultContext(durationSeconds: number | null): KlvFaultContext {
    return { carriage: this.options.carriage, rateHz: this.options.rateHz, durationSeconds };
  }

  /**
   * PTS of packet k without faults: its capture time on the video's
   * presentation time line. Written as the video writes frame PTS (frame
   * index plus reorder, times the frame duration, rounded), so at equal rates
   * the two agree to the tick.
   */
  private nominalPts90kHz(run: KlvRun, k: number): number {
    const frames = (k * run.frameRate) / this.options.rateHz + this.reorderFrames;
    return Math.round(frames * (PTS_HZ / run.frameRate)) + run.presentationDelay90kHz;
  }

  private unit(run: KlvRun, k: number, readySeconds: number): AccessUnit {
    const { plan } = run;
    const o = this.options;
    const inPlan = k < run.planned;
    const pts90kHz = this.nominalPts90kHz(run, k) + (inPlan ? plan.jitterTicks[k] : 0);
    const elapsed90kHz = pts90kHz - run.firstPts90kHz;
    // 1 tick = 100/9 µs; item 2 follows the PTS to the nearest µs, plus any drift or reversal.
    const timestampMicros = o.startTimeMicros + Math.round((elapsed90kHz * 100) / 9 + (inPlan ? plan.timestampShiftMicros[k] : 0));
    const flight = run.flight.at(elapsed90kHz / PTS_HZ);
    const mark = plan.marks.get(k);
    let packet: Uint8Array;
    let details = mark?.details;
    if (mark?.content) {
      const faulty = faultyPacket(mark.content, this.writer, timestampMicros, flight);
      packet = faulty.bytes;
      details = { ...mark.details, ...faulty.details };
    } else {
      packet = this.writer.write(timestampMicros, flight);
    }
    const payload = o.carriage === 'sync' ? writeAuCell({ serviceId: KLV_SERVICE_ID, sequenceNumber: run.sequenceNumber++, randomAccess: true }, packet) : packet;
    const unit: AccessUnit = { readySeconds, pts90kHz: o.pts ? pts90kHz : null, payload };
    if (mark) {
      unit.fault = {
        kind: mark.request.kind,
        atSeconds: mark.request.spec.atSeconds,
        expect: klvFaultExpectation(mark.request.kind),
        details: { klvIndex: plan.klvIndexOf[k], ...details },
      };
    }
    return unit;
  }
}

/** KLV faults are planned over the whole stream before it starts (a drift lasts to its end), so an endless stream has none. */
function checkFiniteStream(spec: FaultSpec, durationSeconds: number): void {
  if (!Number.isFinite(durationSeconds)) throw new GeneratorError('ERR_FAULT_SPEC', `fault ${formatFaultSpec(spec)} needs a stream of finite durationSeconds`);
}

/**
 * Every KLV fault in `faults` must have a KLV stream to inject it (on its
 * `pid` when it names one); throws GeneratorError ERR_FAULT_SPEC otherwise,
 * before the generic "unknown fault kind" of an unclaimed spec.
 */
export function checkKlvFaultsHaveStream(faults: readonly FaultSpec[], sources: readonly ElementaryStreamSource[]): void {
  const klvPids = sources.filter((s) => s instanceof KlvSource).map((s) => s.pid);
  for (const spec of faults) {
    if (!isKlvFaultKind(spec.kind)) continue;
    if (klvPids.length === 0) {
      throw new GeneratorError('ERR_FAULT_SPEC', `fault ${formatFaultSpec(spec)} needs a KLV stream: set the klv option (e.g. klv: { carriage: 'sync' })`);
    }
    if (spec.pid !== undefined && !klvPids.includes(spec.pid)) {
      const known = klvPids.map((p) => `0x${p.toString(16)}`).join(', ');
      throw new GeneratorError('ERR_FAULT_SPEC', `fault ${formatFaultSpec(spec)}: PID 0x${spec.pid.toString(16)} is not a KLV stream (KLV streams: ${known})`);
    }
  }
}
