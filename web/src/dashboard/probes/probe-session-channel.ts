/**
 * One probe session's events on a hub's live channel: the fleet
 * subscriptions (fleetFindings, fleetStatistics, fleetTrack) narrowed to the
 * session. They start from now; tRPC's wsLink resumes each from its last
 * tracked id (the catalog row's) when the socket comes back.
 */
import { openChannel, trackedData, type ChannelState, type LiveChannelConnection } from '../live/live-channel-connection.js';
import type { ProbeFinding, ProbeStatistics, ProbeTrackPoint } from './probe-wire.js';

export interface ProbeSessionListener {
  finding(finding: ProbeFinding): void;
  statistics(reading: ProbeStatistics): void;
  track(point: ProbeTrackPoint): void;
  state(state: ChannelState): void;
}

export function openProbeSessionChannel(apiKey: string, sessionId: string, listener: ProbeSessionListener): LiveChannelConnection {
  const scope = { sessionIds: [sessionId] };
  return openChannel(apiKey, (state) => listener.state(state), (client, failed) => [
    client.subscription('fleetFindings', scope, { onData: trackedData<ProbeFinding>((finding) => listener.finding(finding)), onError: failed('fleetFindings') }),
    client.subscription('fleetStatistics', scope, { onData: trackedData<ProbeStatistics>((reading) => listener.statistics(reading)), onError: failed('fleetStatistics') }),
    client.subscription('fleetTrack', scope, { onData: trackedData<ProbeTrackPoint>((point) => listener.track(point)), onError: failed('fleetTrack') }),
  ]);
}
