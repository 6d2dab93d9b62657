/**
 * What the page keeps of live sessions as their events arrive: findings,
 * statistics readings and the KLV track, per session. Events may come before
 * the page knows the session they belong to (the channel can be quicker
 * than the answer to POST /sessions/live), so each session has its own log
 * and the page shows the one of the session it knows. Bounded: the latest
 * findings and readings only; the track log caps itself.
 */
import { frameKlvValues, type FrameKlvValues } from '@klvscope/core/browser';
import { TrackLog } from '../../viewer/track-log.js';
import type { LiveFinding, LiveMetadataPacket, LiveStatistics } from './live-records.js';

/** Findings kept for the list (the session's database keeps them all; REST pages through them). */
const MAX_FINDINGS = 2_000;
/** Ten minutes of readings. */
const MAX_READINGS = 600;
/** Logs of sessions the page does not show, kept for a session it is about to learn of. */
const MAX_SESSIONS = 4;

export class LiveSessionLog {
  /** Finding records, oldest first. */
  readonly findings: LiveFinding[] = [];
  findingsDropped = 0;
  /** Findings the records received stand for (each record's `count`), in all and by check: the service's counts, exactly. */
  findingsCounted = 0;
  readonly findingsByCheck = new Map<string, number>();
  /** Oldest first. */
  readonly statistics: LiveStatistics[] = [];
  readonly track = new TrackLog();
  metadataPackets = 0;
  /** The values of the latest ST 0601 packet: the map's platform, frame centre and footprint. */
  latest: FrameKlvValues | null = null;

  addFinding(finding: LiveFinding): void {
    this.findingsCounted += finding.count;
    this.findingsByCheck.set(finding.checkId, (this.findingsByCheck.get(finding.checkId) ?? 0) + finding.count);
    this.findings.push(finding);
    if (this.findings.length > MAX_FINDINGS) {
      this.findings.shift();
      this.findingsDropped++;
    }
  }

  addStatistics(reading: LiveStatistics): void {
    this.statistics.push(reading);
    if (this.statistics.length > MAX_READINGS) this.statistics.shift();
  }

  addMetadata(packet: LiveMetadataPacket): void {
    this.addTrackPoint(frameKlvValues(packet.items));
  }

  /** A metadata packet already reduced to its positions and angles (a hub's probes send no more: the fleetTrack subscription). */
  addTrackPoint(values: FrameKlvValues): void {
    this.metadataPackets++;
    this.track.add(values);
    if (values.sensorLatitudeDeg !== null || values.frameCenterLatitudeDeg !== null) this.latest = values;
  }
}

export class LiveSessionLogs {
  private readonly logs = new Map<string, LiveSessionLog>();

  of(sessionId: string): LiveSessionLog {
    let log = this.logs.get(sessionId);
    if (log === undefined) {
      log = new LiveSessionLog();
      this.logs.set(sessionId, log);
      // Map keeps insertion order: the oldest sessions go first.
      for (const id of this.logs.keys()) if (this.logs.size > MAX_SESSIONS && id !== sessionId) this.logs.delete(id);
    }
    return log;
  }
}
