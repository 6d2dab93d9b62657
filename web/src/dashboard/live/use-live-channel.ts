/**
 * The live channel for as long as the page is open: its events go into the
 * sessions' logs, and the page is drawn again at most every 100 ms (metadata
 * comes 30 times a second), which keeps a finding on screen well within a
 * second of its arrival.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { openLiveChannel, type ChannelState } from './live-channel-connection.js';
import { LiveSessionLogs } from './live-session-log.js';

const REDRAW_MS = 100;

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
    let timer: ReturnType<typeof setTimeout> | null = null;
    const changed = (sessionId: string): void => {
      setLatestSessionId(sessionId);
      timer ??= setTimeout(() => {
        timer = null;
        setVersion((value) => value + 1);
      }, REDRAW_MS);
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
      if (timer !== null) clearTimeout(timer);
      connection.close();
    };
  }, [apiKey]);

  return { channel, logs: logsRef.current, version, latestSessionId };
}
