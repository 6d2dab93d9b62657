/**
 * The live page: start a live session on a source URL (POST /sessions/live)
 * and stop it (DELETE /sessions/active); its findings as they happen, its
 * statistics plotted each second and its KLV track on the map, all from the
 * live channel (tRPC over WebSocket, as `klvscope watch` reads it). The page
 * shows the session it knows from REST: the active one when it opens, the
 * one it started, or one a script started (seen first on the channel).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import '../live/live.css';
import { hasEnded, type LiveSessionState } from '../live/live-records.js';
import { LiveSessionPanels } from '../live/live-session-panels.js';
import { LiveSessionSummary } from '../live/live-session-summary.js';
import { LiveSourceForm } from '../live/live-source-form.js';
import { useLiveChannel } from '../live/use-live-channel.js';
import type { PageProps } from '../page-props.js';
import type { ProbeSessionView } from '../probes/probe-wire.js';
import { ProbesOverview, useProbes } from '../probes/probes-overview.js';

export function LivePage({ api, navigate }: PageProps<Extract<DashboardRoute, { page: 'live' }>>) {
  const { channel, logs, version, latestSessionId } = useLiveChannel(api.apiKey);
  const fleet = useProbes(api);
  const onlineProbes = (fleet.data?.probes ?? []).filter((probe) => probe.online).map((probe) => probe.name);
  const [session, setSession] = useState<LiveSessionState | null>(null);
  const [busy, setBusy] = useState(false);
  const [formProblem, setFormProblem] = useState<Error | null>(null);
  const [loadProblem, setLoadProblem] = useState<Error | null>(null);

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

  const start = async (source: string, probe: string | null) => {
    setBusy(true);
    setFormProblem(null);
    try {
      if (probe !== null) {
        // A probe's session runs beside its others: the page goes to its live view.
        const started = await api.post<ProbeSessionView>('/sessions/live', { source, probe });
        navigate({ page: 'probe-session', sessionId: started.sessionId });
        return;
      }
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
      <ProbesOverview polled={fleet} />
      <LiveSourceForm running={running} busy={busy} problem={formProblem} probes={onlineProbes} onStart={(source, probe) => void start(source, probe)} onStop={() => void stop()} />
      {fleet.data !== null && <h2 class="own-session">This service's own session</h2>}
      {loadProblem !== null && <ErrorNotice error={loadProblem} what="read the active session" />}
      <LiveSessionSummary session={session} status={status} channel={channel} />
      {log !== null && <LiveSessionPanels log={log} version={version} />}
    </div>
  );
}
