/**
 * What the streaming module knows of a transport stream it passes on, from
 * core's KLV-aware demuxer: the program's PMT, video and KLV PIDs (with their
 * carriage, MISB ST 1402: stream_type 0x15 is synchronous, 0x06 with a KLVA
 * registration asynchronous), and every decoded metadata packet as the
 * viewer's JSON message. One analysis per source run: a new source, or the
 * source reopened, starts a new one (the demuxer's clocks start again).
 */
import { createKlvAwareTsDemuxer, frameKlvValues, ST0601_MANDATORY_TAGS, isVideoStreamType, streamTypeName, VideoResolutionProbe, type Demuxer, type Observation, type PmtObservation, type StreamKlvMessage } from '@klvscope/core';

/** The codec as the viewer names it, where it differs from the stream type's name (the video types are core's, isVideoStreamType). */
const CODEC_NAMES: ReadonlyMap<number, string> = new Map([
  [0x1b, 'H.264'],
  [0x24, 'HEVC'],
]);
const SYNCHRONOUS_METADATA = 0x15;
const PACKET_SIZE = 188;
const PRIVATE_DATA = 0x06;

export interface VideoStream {
  pid: number;
  streamType: number;
  codec: string;
}

export class StreamAnalysis {
  /** The first program's PMT PID, once a PAT was read. */
  pmtPid: number | null = null;
  /** The first video stream of the PMT, once a PMT was read. */
  video: VideoStream | null = null;
  /** KLV PIDs of the PMT with their carriage; empty before the PMT and when the source carries no KLV. */
  readonly klvPids = new Map<number, 'sync' | 'async'>();
  pmtSeen = false;
  /** ST 0601 item 3 of the latest packet that carried it. */
  missionId: string | null = null;
  /** Metadata packets decoded since the last `takeKlvCount()`. */
  private klvCount = 0;
  /** Payload bytes of the video PID since the last `takeVideoBytes()`. */
  private videoBytes = 0;
  private readonly demuxer: Demuxer;
  /** Reads the video's sequence parameter set (or MPEG-2 sequence header) from the first video PES that has one. */
  private readonly resolutionProbe = new VideoResolutionProbe();
  /** `WIDTHxHEIGHT` of the video, once read; '' before. */
  videoResolution = '';

  constructor(private readonly onKlv: ((message: StreamKlvMessage) => void) | null) {
    // Nothing reads klv-field here: the metadata packet has the same items.
    this.demuxer = createKlvAwareTsDemuxer(this.observe, { klvFields: false });
  }

  /** Whole 188-byte packets. */
  push(bytes: Uint8Array): void {
    this.demuxer.push(bytes);
    if (this.video !== null) this.videoBytes += payloadBytesOf(bytes, this.video.pid);
    if (this.videoResolution === '') {
      const resolution = this.resolutionProbe.push(bytes);
      if (resolution) this.videoResolution = `${resolution.width}x${resolution.height}`;
    }
  }

  /** The metadata packets decoded since the last call. */
  takeKlvCount(): number {
    const count = this.klvCount;
    this.klvCount = 0;
    return count;
  }

  /** The video PID's payload bytes (PES headers and elementary stream) since the last call. */
  takeVideoBytes(): number {
    const bytes = this.videoBytes;
    this.videoBytes = 0;
    return bytes;
  }

  private readonly observe = (observation: Observation): void => {
    if (observation.kind === 'pat') {
      this.pmtPid = observation.programs.find((program) => program.programNumber !== 0)?.pid ?? null;
    } else if (observation.kind === 'pmt') {
      if (this.pmtPid === null || observation.pid === this.pmtPid) this.readPmt(observation);
    } else if (observation.kind === 'metadata-packet') {
      this.klvCount++;
      const values = frameKlvValues(observation.items);
      if (values.missionId !== null && values.missionId.trim() !== '') this.missionId = values.missionId.trim();
      this.onKlv?.({
        type: 'klv',
        pid: observation.pid,
        carriage: this.klvPids.get(observation.pid) ?? 'async',
        pts90kHz: observation.pts90kHz,
        streamTime: observation.t,
        standard: observation.standard,
        checksumValid: observation.checksum === null ? null : observation.checksum.valid,
        missingMandatoryTags: observation.standard === 'MISB ST 0601' ? missingTags(observation.items.map((item) => item.tag)) : [],
        values,
      });
    }
  };

  private readPmt(pmt: PmtObservation): void {
    this.pmtSeen = true;
    const video = pmt.streams.find((stream) => isVideoStreamType(stream.streamType));
    this.video = video ? { pid: video.pid, streamType: video.streamType, codec: CODEC_NAMES.get(video.streamType) ?? streamTypeName(video.streamType) } : null;
    this.klvPids.clear();
    for (const stream of pmt.streams) {
      const klva = stream.descriptors.some((descriptor) => descriptor.dataHex.includes('4b4c5641'));
      if (stream.streamType === SYNCHRONOUS_METADATA && klva) this.klvPids.set(stream.pid, 'sync');
      else if (stream.streamType === PRIVATE_DATA && klva) this.klvPids.set(stream.pid, 'async');
    }
  }
}

/** ISO 13818-1 2.4.3.2: the payload bytes of the PID's packets, after the header and any adaptation field. */
function payloadBytesOf(bytes: Uint8Array, pid: number): number {
  let total = 0;
  for (let pos = 0; pos + PACKET_SIZE <= bytes.length; pos += PACKET_SIZE) {
    if ((((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2]) !== pid) continue;
    const afc = (bytes[pos + 3] >> 4) & 0x3;
    if ((afc & 0x1) === 0) continue;
    total += PACKET_SIZE - 4 - (afc & 0x2 ? 1 + bytes[pos + 4] : 0);
  }
  return total;
}

/** The ST 0601 mandatory tags not among `tags`. */
function missingTags(tags: readonly number[]): number[] {
  const present = new Set(tags);
  return ST0601_MANDATORY_TAGS.filter((tag) => !present.has(tag));
}
