/**
 * A probe session's live view, fed for as long as it is open: its findings,
 * statistics and KLV track from the hub's live channel into one session log,
 * and the findings it had before the view opened from the catalog (GET
 * /sessions/{id}/findings), so an older or ended session's list is not empty.
 * The stored findings are read once the channel is open, so that they reach
 * at least up to where the live subscription started; the overlap goes
 * (past-then-live-findings.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.js';
import type { ChannelState } from '../live/live-channel-connection.js';
import { LiveSessionLog } from '../live/live-session-log.js';
import { redrawCue } from '../live/redraw-cue.js';
import { PastThenLiveFindings } from './past-then-live-findings.js';
import { openProbeSessionChannel } from './probe-session-channel.js';
import type { ProbeFinding } from './probe-wire.js';

/** Stored findings read on opening: the latest ones, as many as the log keeps in one page. */
const PAST_FINDINGS = 1_000;

export type PastFindings = { state: 'reading' } | { state: 'read'; stored: number; shown: number } | { state: 'failed'; error: Error };

export interface ProbeSessionChannelView {
  channel: ChannelState;
  log: LiveSessionLog;
  /** Grows when the log changed: the page's cue to draw again. */
  version: number;
  past: PastFindings;
}

interface StoredFindings {
  total: number;
  findings: ProbeFinding[];
}

export function useProbeSessionChannel(api: ApiClient, sessionId: string): ProbeSessionChannelView {
  const [log, setLog] = useState(() => new LiveSessionLog());
  const [channel, setChannel] = useState<ChannelState>({ state: 'connecting', problem: null });
  const [version, setVersion] = useState(0);
  const [past, setPast] = useState<PastFindings>({ state: 'reading' });

  useEffect(() => {
    const sessionLog = new LiveSessionLog();
    setLog(sessionLog);
    setPast({ state: 'reading' });
    const join = new PastThenLiveFindings();
    const redraw = redrawCue(() => setVersion((value) => value + 1));
    let closed = false;
    let pastRequested = false;
    const show = (findings: ProbeFinding[]): void => {
      for (const finding of findings) sessionLog.addFinding(finding);
      if (findings.length > 0) redraw.changed();
    };
    const readPast = (): void => {
      pastRequested = true;
      latestStoredFindings(api, sessionId).then(
        (stored) => {
          if (closed) return;
          show(join.past(stored.findings));
          setPast({ state: 'read', stored: stored.total, shown: stored.findings.length });
        },
        (error: unknown) => {
          if (closed) return;
          show(join.past([]));
          setPast({ state: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
    };
    const connection = openProbeSessionChannel(api.apiKey, sessionId, {
      finding: (finding) => show(join.live(finding)),
      statistics: (reading) => {
        sessionLog.addStatistics(reading);
        redraw.changed();
      },
      track: (point) => {
        sessionLog.addTrackPoint(point.values);
        redraw.changed();
      },
      state: (state) => {
        setChannel(state);
        // A channel that cannot open must not keep the stored findings from showing.
        if (!pastRequested && (state.state === 'open' || state.state === 'closed')) readPast();
      },
    });
    return () => {
      closed = true;
      redraw.cancel();
      connection.close();
    };
  }, [api, sessionId]);

  return { channel, log, version, past };
}

/** The session's latest stored findings, oldest first, and how many it has in all. */
async function latestStoredFindings(api: ApiClient, sessionId: string): Promise<StoredFindings> {
  const path = `/sessions/${encodeURIComponent(sessionId)}/findings`;
  const first = await api.get<StoredFindings>(path, { limit: PAST_FINDINGS });
  if (first.total <= PAST_FINDINGS) return first;
  const last = await api.get<StoredFindings>(path, { limit: PAST_FINDINGS, offset: first.total - PAST_FINDINGS });
  return { total: last.total, findings: last.findings };
}
