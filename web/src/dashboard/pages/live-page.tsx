/**
 * The live page: start a live session on a source URL (POST /sessions/live)
 * and stop it (DELETE /sessions/active); its findings as they happen, its
 * statistics plotted each second and its KLV track on the map, all from the
 * live channel (tRPC over WebSocket, as `klvscope watch` reads it). The page
 * shows the session it knows from REST: the active one when it opens, the
 * one it started, or one a script started (seen first on the channel).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import 'leaflet/dist/leaflet.css';
import { TrackMap } from '../../viewer/track-map.js';
import type { DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import '../live/live.css';
import { NO_FILTER, type FindingFilter } from '../live/finding-filter.js';
import { LiveFindingsList } from '../live/live-findings-list.js';
import { hasEnded, type LiveSessionState } from '../live/live-records.js';
import { LiveSessionSummary } from '../live/live-session-summary.js';
import { LiveSourceForm } from '../live/live-source-form.js';
import { StatisticsCharts } from '../live/statistics-charts.js';
import { useLiveChannel } from '../live/use-live-channel.js';
import type { PageProps } from '../page-props.js';

export function LivePage({ api }: PageProps<Extract<DashboardRoute, { page: 'live' }>>) {
  const { channel, logs, version, latestSessionId } = useLiveChannel(api.apiKey);
  const [session, setSession] = useState<LiveSessionState | null>(null);
  const [busy, setBusy] = useState(false);
  const [formProblem, setFormProblem] = useState<Error | null>(null);
  const [loadProblem, setLoadProblem] = useState<Error | null>(null);
  const [drawn, setDrawn] = useState({ platform: 0, frameCentre: 0 });
  const [filter, setFilter] = useState<FindingFilter>(NO_FILTER);

  const loadActive = useCallback(async () => {
    try {
      const { active } = await api.get<{ active: (LiveSessionState | { kind?: string }) | null }>('/sessions/active');
      setSession(active !== null && active.kind === 'live' ? (active as LiveSessionState) : null);
      setLoadProblem(null);
    } catch (error) {
      setLoadProblem(error as Error);
    }
  }, [api]);

  useEffect(() => {
    void loadActive();
  }, [loadActive]);

  // A session the page did not start (a script, another tab): show it once the channel names it.
  useEffect(() => {
    if (latestSessionId !== null && latestSessionId !== session?.sessionId && !busy) void loadActive();
  }, [latestSessionId]);

  const start = async (source: string) => {
    setBusy(true);
    setFormProblem(null);
    try {
      setSession(await api.post<LiveSessionState>('/sessions/live', { source }));
    } catch (error) {
      setFormProblem(error as Error);
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    setBusy(true);
    try {
      setSession(await api.request<LiveSessionState>('DELETE', '/sessions/active'));
    } catch (error) {
      setFormProblem(error as Error);
    } finally {
      setBusy(false);
    }
  };

  const log = session === null ? null : logs.of(session.sessionId);
  const latestReading = log?.statistics.at(-1);
  // The channel's reading is newer than REST's answer, except once the session has ended.
  const status = session === null ? null : hasEnded(session.status) || latestReading === undefined ? session.status : latestReading.status;
  const running = session !== null && status !== null && !hasEnded(status);

  return (
    <div class="live-page" data-session={session?.sessionId ?? ''}>
      <h1>Live</h1>
      <LiveSourceForm running={running} busy={busy} problem={formProblem} onStart={(source) => void start(source)} onStop={() => void stop()} />
      {loadProblem !== null && <ErrorNotice error={loadProblem} what="read the active session" />}
      <LiveSessionSummary session={session} status={status} channel={channel} />
      {log !== null && (
        <div class="live-grid">
          <LiveFindingsList findings={log.findings} total={log.findingsCounted} byCheck={log.findingsByCheck} filter={filter} onFilter={setFilter} />
          <section class="panel live-map" aria-label="map" data-platform-points={drawn.platform} data-frame-centre-points={drawn.frameCentre} data-metadata-packets={log.metadataPackets}>
            <h2>KLV track</h2>
            <TrackMap
              track={log.track}
              trackVersion={version}
              current={log.latest}
              tileUrl={null}
              onDrawn={(platform, frameCentre) => setDrawn((old) => (old.platform === platform && old.frameCentre === frameCentre ? old : { platform, frameCentre }))}
            />
          </section>
          <StatisticsCharts readings={log.statistics} version={version} />
        </div>
      )}
    </div>
  );
}
