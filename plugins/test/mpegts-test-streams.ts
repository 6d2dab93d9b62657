/**
 * Streams for the mpegts-* check tests beyond what the generator's built-in
 * faults make: fault kinds of our own (one PCR off its line, a PCR jump
 * announced by discontinuity_indicator), elementary streams that are
 * declared but silent, and byte edits of a generated stream (scrambling, a
 * broken header) located by packet index.
 */
import {
  createKlvAwareTsDemuxer,
  generateTransportStream,
  PCR_HZ,
  type AccessUnit,
  type ElementaryStreamSource,
  type FaultSpec,
  type GeneratorOptions,
  type InjectedFault,
  type Observation,
  type ObservationKind,
  type ObservationOf,
} from '@klvscope/core';

type FaultKind = NonNullable<GeneratorOptions['faultKinds']>[number];
type FaultInjector = ReturnType<FaultKind['create']>;
type PacketInfo = Parameters<NonNullable<FaultInjector['onPacket']>>[0];

function truthAt(spec: FaultSpec, info: PacketInfo, details: InjectedFault['details']): InjectedFault {
  return { kind: spec.kind, pid: info.pid, packetIndex: info.outputIndex, offset: info.offset, atSeconds: spec.atSeconds, expect: { observation: 'pcr' }, details };
}

/**
 * One PCR, the first of the PCR PID at or after the time, moved by
 * `amountMs` (a fraction of a millisecond: 0.002 = 2 µs) while every other
 * PCR stays exact: an inaccurate PCR (TR 101 290 2.4).
 */
export const pcrOffsetFault: FaultKind = {
  kind: 'pcr-offset',
  summary: 'one PCR off its constant-bitrate value by amountMs',
  create(spec, layout): FaultInjector {
    const pid = layout.pcrPid;
    const shift27MHz = Math.round(((spec.amountMs ?? 0.002) / 1000) * PCR_HZ);
    let shifted = false;
    let truth: InjectedFault | null = null;
    return {
      pcrShift27MHz(p, slotSeconds) {
        if (shifted || p !== pid || slotSeconds < spec.atSeconds) return 0;
        shifted = true;
        return shift27MHz;
      },
      onPacket(info) {
        if (truth === null && info.hasPcr && info.pcrShift27MHz !== 0) truth = truthAt(spec, info, { shift27MHz });
        return 'keep';
      },
      result: () => truth,
      pendingReason: () => `no PCR at or after ${spec.atSeconds} s`,
    };
  },
};

/**
 * Every PCR from the time on moved by `amountMs` (default 1000), the first
 * moved one carrying discontinuity_indicator: a new time base, announced as
 * ISO/IEC 13818-1 2.4.3.5 asks.
 */
export const signalledPcrJumpFault: FaultKind = {
  kind: 'pcr-jump-signalled',
  summary: 'every PCR from the time on moved by amountMs, the first with discontinuity_indicator',
  create(spec, layout): FaultInjector {
    const pid = layout.pcrPid;
    const shift27MHz = Math.round(((spec.amountMs ?? 1000) / 1000) * PCR_HZ);
    let truth: InjectedFault | null = null;
    return {
      pcrShift27MHz: (p, slotSeconds) => (p === pid && slotSeconds >= spec.atSeconds ? shift27MHz : 0),
      onPacket(info, bytes, syncPos) {
        if (truth === null && info.hasPcr && info.pcrShift27MHz !== 0) {
          // ISO/IEC 13818-1 2.4.3.4: the flags byte follows adaptation_field_length; bit 7 is discontinuity_indicator.
          bytes[syncPos + 5] |= 0x80;
          truth = truthAt(spec, info, { shift27MHz });
        }
        return 'keep';
      },
      result: () => truth,
      pendingReason: () => `no PCR at or after ${spec.atSeconds} s`,
    };
  },
};

/**
 * An elementary stream of PES private data (stream_type 0x06) that sends a
 * small PES every `periodSeconds` in [fromSeconds, untilSeconds), and nothing
 * otherwise: silent throughout by default (declared in the PMT, never
 * carried).
 */
export function privateDataStream(pid: number, options: { periodSeconds?: number; fromSeconds?: number; untilSeconds?: number } = {}): ElementaryStreamSource {
  const period = options.periodSeconds ?? 0.1;
  const from = options.fromSeconds ?? 0;
  const until = options.untilSeconds ?? 0;
  let next = from;
  return {
    pid,
    streamType: 0x06,
    streamId: 0xbd,
    descriptors: new Uint8Array(0),
    nominalBitrate: 8000,
    start() {
      next = from;
    },
    nextAccessUnits(upToSeconds) {
      const units: AccessUnit[] = [];
      while (next < until && next <= upToSeconds) {
        units.push({ readySeconds: next, pts90kHz: null, payload: new Uint8Array(16).fill(0xa5) });
        next += period;
      }
      return units;
    },
  };
}

/** The observations of one kind in a stream, as the engine sees them. */
export function observationsOf<K extends ObservationKind>(bytes: Uint8Array, kind: K): ObservationOf<K>[] {
  const found: ObservationOf<K>[] = [];
  const demuxer = createKlvAwareTsDemuxer((o: Observation) => {
    if (o.kind === kind) found.push(o as ObservationOf<K>);
  });
  demuxer.push(bytes);
  demuxer.end();
  return found;
}

/** A generated stream's bytes with its packets laid out (188 or 192-byte packets). */
export class EditableStream {
  readonly bytes: Uint8Array;
  private readonly size: number;
  private readonly prefix: number;

  constructor(options: GeneratorOptions) {
    this.bytes = generateTransportStream(options).bytes;
    this.size = options.packetSize ?? 188;
    this.prefix = this.size === 192 ? 4 : 0;
  }

  get packetCount(): number {
    return Math.floor(this.bytes.length / this.size);
  }

  /** Byte offset of packet `index`'s sync byte (as an observation's `offset`). */
  offset(index: number): number {
    return index * this.size + this.prefix;
  }

  pid(index: number): number {
    const pos = this.offset(index);
    return ((this.bytes[pos + 1] & 0x1f) << 8) | this.bytes[pos + 2];
  }

  unitStart(index: number): boolean {
    return (this.bytes[this.offset(index) + 1] & 0x40) !== 0;
  }

  /** adaptation_field_control: 1 payload only, 2 adaptation field only, 3 both. */
  adaptationFieldControl(index: number): number {
    return (this.bytes[this.offset(index) + 3] >>> 4) & 0x03;
  }

  /** Where the payload starts in `bytes` (after the adaptation field). */
  payloadPos(index: number): number {
    const pos = this.offset(index);
    return this.adaptationFieldControl(index) & 0x02 ? pos + 5 + this.bytes[pos + 4] : pos + 4;
  }

  /** The first packet at or after `from` that `test` accepts. */
  find(from: number, test: (index: number) => boolean): number {
    for (let i = from; i < this.packetCount; i++) if (test(i)) return i;
    throw new Error(`no such packet from ${from} on`);
  }

  /** The first packet of `pid` at or after `from` in the middle of a PES: payload only, no unit start. */
  findPlainPayload(from: number, pid: number): number {
    return this.find(from, (i) => this.pid(i) === pid && !this.unitStart(i) && this.adaptationFieldControl(i) === 1 && this.pid(i + 1) === pid);
  }

  /** Sets transport_scrambling_control to '10' (ISO/IEC 13818-1 2.4.3.3). */
  scramble(index: number): void {
    this.bytes[this.offset(index) + 3] |= 0x80;
  }

  /** Packets of PID `from` become packets of PID `to` from packet `start` on. */
  movePid(from: number, to: number, start = 0): void {
    for (let i = start; i < this.packetCount; i++) {
      if (this.pid(i) !== from) continue;
      const pos = this.offset(i);
      this.bytes[pos + 1] = (this.bytes[pos + 1] & 0xe0) | (to >> 8);
      this.bytes[pos + 2] = to & 0xff;
    }
  }
}

const base: GeneratorOptions = { durationSeconds: 3, bitrate: 3_000_000, seed: 11 };

/** Clean streams beyond streams.ts's: 204-byte packets, and the PCR and PTS wrapping around one second in. */
export const MORE_CLEAN_STREAMS: Array<{ name: string; input: { generate: GeneratorOptions } }> = [
  { name: '204-byte packets with audio and sync KLV', input: { generate: { ...base, packetSize: 204, audio: true, klv: {} } } },
  // ISO/IEC 13818-1 2.4.2.2: the PCR wraps at 2^33 * 300, the PTS at 2^33.
  { name: 'PCR and PTS wrapping around, audio and async KLV with PTS', input: { generate: { ...base, audio: true, klv: { carriage: 'async', pts: true }, initialPcr27MHz: (2 ** 33 - 90_000) * 300 } } },
];

/** streams.ts's base stream (3 s at 3 Mb/s, seed 11) with more options. */
export function cleanStream(options: Partial<GeneratorOptions> = {}): { generate: GeneratorOptions } {
  return { generate: { ...base, ...options } };
}

/** A 4-second stream (as streams.ts's withFault) with one fault of our own kinds. */
export function withOwnFault(spec: FaultSpec, kind: FaultKind): { generate: GeneratorOptions } {
  return { generate: { ...base, durationSeconds: 4, faults: [spec], faultKinds: [kind] } };
}
