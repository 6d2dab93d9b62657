/**
 * The live channel for as long as the page is open: its events go into the
 * sessions' logs, and the page is drawn again soon after (redraw-cue.ts).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { openLiveChannel, type ChannelState } from './live-channel-connection.js';
import { LiveSessionLogs } from './live-session-log.js';
import { redrawCue } from './redraw-cue.js';

export interface LiveChannelView {
  channel: ChannelState;
  logs: LiveSessionLogs;
  /** Grows when a log changed: the page's cue to draw again. */
  version: number;
  /** The session of the latest event, which may be one the page did not start. */
  latestSessionId: string | null;
}

export function useLiveChannel(apiKey: string): LiveChannelView {
  const logsRef = useRef(new LiveSessionLogs());
  const [channel, setChannel] = useState<ChannelState>({ state: 'connecting', problem: null });
  const [version, setVersion] = useState(0);
  const [latestSessionId, setLatestSessionId] = useState<string | null>(null);

  useEffect(() => {
    const logs = logsRef.current;
    const redraw = redrawCue(() => setVersion((value) => value + 1));
    const changed = (sessionId: string): void => {
      setLatestSessionId(sessionId);
      redraw.changed();
    };
    const connection = openLiveChannel(apiKey, {
      finding: (finding) => {
        logs.of(finding.sessionId).addFinding(finding);
        changed(finding.sessionId);
      },
      metadata: (packet) => {
        logs.of(packet.sessionId).addMetadata(packet);
        changed(packet.sessionId);
      },
      statistics: (reading) => {
        logs.of(reading.sessionId).addStatistics(reading);
        changed(reading.sessionId);
      },
      state: setChannel,
    });
    return () => {
      redraw.cancel();
      connection.close();
    };
  }, [apiKey]);

  return { channel, logs: logsRef.current, version, latestSessionId };
}
