/**
 * The video details of a transport stream, per video PID: the sequence's
 * profile, level, size and frame rate, the count of each picture type, and
 * the structure of its groups of pictures (length, open or closed, the
 * I/P/B pattern in display order). A PES payload consumer: the demuxer
 * hands it each video PES payload, one access unit as muxers write them
 * (ISO 13818-1 2.14 for H.264, 2.17 for H.265); `build` sums them up.
 */
import type { ElementaryStream, Observation, PesObservation } from '../kernel/observations.js';
import type { PesPayloadConsumer } from './pes-payload-consumer.js';
import { VideoAccessUnitReader, type PictureType, type VideoSequenceParameters } from './video-access-unit.js';
import { videoCodecOf, type VideoCodec } from './video-resolution.js';

export interface VideoGopStructure {
  /** Groups of pictures: the pictures from one I picture up to the next, in decode order. */
  count: number;
  /** Pictures per group, over the groups that the next I picture closes (the last one is cut by the file's end). */
  minLength: number | null;
  maxLength: number | null;
  /** The commonest length (the longer on a tie), or null without a complete group. */
  typicalLength: number | null;
  /**
   * 'closed' when every group starts with a picture nothing after it predicts across (IDR, BLA,
   * closed_gop) or has no leading pictures; 'open' when every group has leading pictures after a
   * non-IDR I; 'mixed' otherwise. The first group is left out when there are more (a stream's
   * first group has nothing to lead into).
   */
  kind: 'closed' | 'open' | 'mixed' | null;
  /** Picture types of the first group in display order (by PTS), e.g. 'IBBPBBPBB'; at most 120 letters. */
  pattern: string | null;
}

export interface VideoStreamDetails {
  pid: number;
  codec: VideoCodec;
  streamType: number;
  /** From the first readable SPS or sequence header; null fields when there was none. */
  width: number | null;
  height: number | null;
  profile: string | null;
  level: string | null;
  tier: string | null;
  chromaFormat: string | null;
  /** Frames per second that the stream's timing information declares (H.264/H.265 VUI, MPEG-2 frame_rate_code), or null. */
  frameRate: number | null;
  /** Frames per second from the PTS: 90 kHz over the commonest step between pictures in display order; null below two pictures. */
  measuredFrameRate: number | null;
  /** Access units whose picture type was read. */
  pictures: number;
  frameTypes: Record<PictureType, number>;
  gop: VideoGopStructure;
}

/** Pattern letters kept in a report. */
const MAX_PATTERN = 120;

interface PictureRecord {
  type: PictureType;
  closesGop: boolean;
  pts90kHz: number | null;
}

/** One PID's state during the pass. */
class VideoPidDetails {
  readonly reader: VideoAccessUnitReader;
  sequence: VideoSequenceParameters | null = null;
  readonly frameTypes: Record<PictureType, number> = { I: 0, P: 0, B: 0 };
  pictures = 0;
  /** Payloads handed over. */
  units = 0;
  /** The I pictures' indexes in decode order, with whether each closes its group. */
  readonly groupStarts: Array<{ index: number; closed: boolean }> = [];
  /** Groups with leading pictures (a picture after the I in decode order shown before it), by start index. */
  readonly groupsWithLeading = new Set<number>();
  /** The pictures of the first two groups, for the pattern. */
  readonly firstPictures: PictureRecord[] = [];
  /** Steps between consecutive PTS in decode order are not frame steps (B pictures reorder): all PTS kept as a typed column. */
  pts: Float64Array = new Float64Array(256);
  ptsCount = 0;
  private groupStartPts: number | null = null;

  constructor(
    readonly pid: number,
    readonly codec: VideoCodec,
    readonly streamType: number,
  ) {
    this.reader = new VideoAccessUnitReader(codec);
  }

  add(bytes: Uint8Array, pts90kHz: number | null): void {
    this.units++;
    const reading = this.reader.read(bytes);
    if (reading.sequence && !this.sequence) this.sequence = reading.sequence;
    const picture = reading.picture;
    if (!picture) return;
    const index = this.pictures++;
    this.frameTypes[picture.type]++;
    if (picture.type === 'I') {
      this.groupStarts.push({ index, closed: picture.closesGop });
      this.groupStartPts = pts90kHz;
    } else if (pts90kHz !== null && this.groupStartPts !== null && pts90kHz < this.groupStartPts && this.groupStarts.length > 0) {
      this.groupsWithLeading.add(this.groupStarts[this.groupStarts.length - 1].index);
    }
    if (this.groupStarts.length <= 2) this.firstPictures.push({ type: picture.type, closesGop: picture.closesGop, pts90kHz });
    if (pts90kHz !== null) this.keepPts(pts90kHz);
  }

  private keepPts(pts90kHz: number): void {
    if (this.ptsCount === this.pts.length) {
      const grown = new Float64Array(this.pts.length * 2);
      grown.set(this.pts);
      this.pts = grown;
    }
    this.pts[this.ptsCount++] = pts90kHz;
  }

  details(): VideoStreamDetails {
    const s = this.sequence;
    return {
      pid: this.pid,
      codec: this.codec,
      streamType: this.streamType,
      width: s?.width ?? null,
      height: s?.height ?? null,
      profile: s?.profile ?? null,
      level: s?.level ?? null,
      tier: s?.tier ?? null,
      chromaFormat: s?.chromaFormat ?? null,
      frameRate: s?.frameRate ?? null,
      measuredFrameRate: measuredFrameRate(this.pts.subarray(0, this.ptsCount)),
      pictures: this.pictures,
      frameTypes: { ...this.frameTypes },
      gop: this.gop(),
    };
  }

  private gop(): VideoGopStructure {
    const starts = this.groupStarts;
    const lengths: number[] = [];
    for (let i = 1; i < starts.length; i++) lengths.push(starts[i].index - starts[i - 1].index);
    const counts = new Map<number, number>();
    for (const length of lengths) counts.set(length, (counts.get(length) ?? 0) + 1);
    let typical: number | null = null;
    for (const [length, n] of counts) if (typical === null || n > counts.get(typical)! || (n === counts.get(typical) && length > typical)) typical = length;
    // The stream's first group can have no leading pictures (nothing came before it): it decides only when it is the only one.
    const judged = starts.length > 1 ? starts.slice(1) : starts;
    const closedKinds = new Set(judged.map((start) => start.closed || !this.groupsWithLeading.has(start.index)));
    const kind = starts.length === 0 ? null : closedKinds.size === 2 ? 'mixed' : closedKinds.has(true) ? 'closed' : 'open';
    return {
      count: starts.length,
      minLength: lengths.length > 0 ? Math.min(...lengths) : null,
      maxLength: lengths.length > 0 ? Math.max(...lengths) : null,
      typicalLength: typical,
      kind,
      pattern: this.pattern(),
    };
  }

  /** The first group in display order: from the first I picture by PTS up to the next I picture by PTS. */
  private pattern(): string | null {
    const shown = this.firstPictures.every((p) => p.pts90kHz !== null) ? [...this.firstPictures].sort((a, b) => a.pts90kHz! - b.pts90kHz!) : this.firstPictures;
    const first = shown.findIndex((p) => p.type === 'I');
    if (first < 0) return null;
    let end = shown.findIndex((p, i) => i > first && p.type === 'I');
    if (end < 0) end = shown.length;
    const letters = shown.slice(first, end).map((p) => p.type).join('');
    return letters.length > MAX_PATTERN ? `${letters.slice(0, MAX_PATTERN)}…` : letters;
  }
}

/** Ten seconds: a longer step between pictures is a gap, not a frame rate. */
const MAX_FRAME_STEP_90KHZ = 900_000;

/** 90 kHz over the commonest positive step between sorted PTS (ISO 13818-1 2.4.3.7), or null. */
function measuredFrameRate(pts: Float64Array): number | null {
  if (pts.length < 2) return null;
  const sorted = Float64Array.from(pts).sort();
  const steps = new Map<number, number>();
  for (let i = 1; i < sorted.length; i++) {
    const step = sorted[i] - sorted[i - 1];
    if (step > 0 && step <= MAX_FRAME_STEP_90KHZ) steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [step, n] of steps) if (n > bestCount) [best, bestCount] = [step, n];
  return best > 0 ? 90_000 / best : null;
}

/**
 * Of each video access unit, the bytes read: until a PID's sequence parameters are read, enough for its
 * delimiter, parameter sets, SEI (x264's and x265's option strings, in the first unit only, run to 2 KB)
 * and the first slice's header; then 4 KB (the units' own delimiter, parameter sets and slice header,
 * and x265's options again before each key frame: a kilobyte missed them). A PID whose first units held no start code at all (no video the reader knows, or a
 * generator's filler) is sampled at each unit's first bytes only.
 */
const FIRST_UNITS_PREFIX_BYTES = 8 * 1024;
const LATER_UNITS_PREFIX_BYTES = 4 * 1024;
const UNREADABLE_PREFIX_BYTES = 64;
/** Units without a picture or a sequence after which a PID counts as unreadable. */
const UNREADABLE_AFTER_UNITS = 32;

export class VideoDetailsBuilder implements PesPayloadConsumer {
  private readonly pids = new Map<number, VideoPidDetails>();

  wants(stream: ElementaryStream): boolean {
    return videoCodecOf(stream.streamType) !== null;
  }

  /** An access unit's parameter sets and first slice header come first: its first bytes are read. */
  prefixBytes(stream: ElementaryStream): number {
    const state = this.pids.get(stream.pid);
    if (!state) return FIRST_UNITS_PREFIX_BYTES;
    if (state.sequence !== null) return LATER_UNITS_PREFIX_BYTES;
    return state.units >= UNREADABLE_AFTER_UNITS && state.pictures === 0 ? UNREADABLE_PREFIX_BYTES : FIRST_UNITS_PREFIX_BYTES;
  }

  payload(pes: PesObservation, stream: ElementaryStream, payload: Uint8Array, _complete: boolean, _emit: (observation: Observation) => void): void {
    const codec = videoCodecOf(stream.streamType);
    if (codec === null) return;
    let state = this.pids.get(stream.pid);
    if (!state || state.codec !== codec) {
      state = new VideoPidDetails(stream.pid, codec, stream.streamType);
      this.pids.set(stream.pid, state);
    }
    state.add(payload, pes.pts90kHz);
  }

  /** The details of every video PID seen, by PID. */
  build(): VideoStreamDetails[] {
    return [...this.pids.values()].sort((a, b) => a.pid - b.pid).map((state) => state.details());
  }
}
