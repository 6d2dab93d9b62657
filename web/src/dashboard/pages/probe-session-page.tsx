/**
 * A hub's probe session in the live view (`#/live/probe/<sessionId>`),
 * opened from its tile on the live page: its state from GET /sessions/{id}
 * every second (light, probe, source, status), and the same findings list,
 * map and statistics charts as the service's own live session, fed from the
 * live channel's fleet subscriptions and, for what came before the view
 * opened, from the stored findings. A running session can be stopped here.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api-client.js';
import { routeHash, type DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import { LiveSessionPanels } from '../live/live-session-panels.js';
import { ChannelStateBadge, SessionFacts } from '../live/live-session-summary.js';
import '../live/live.css';
import type { PageProps } from '../page-props.js';
import type { ProbeSessionView } from '../probes/probe-wire.js';
import { isNoHub, LIGHT_NAMES } from '../probes/probes-overview.js';
import '../probes/probes.css';
import { useProbeSessionChannel, type PastFindings } from '../probes/use-probe-session-channel.js';
import { useApiData } from '../use-api-data.js';
import { usePolledData } from '../use-polled-data.js';

const REFRESH_MS = 1_000;

/** A session no probe ran stays unknown: no need to ask again. */
const isUnknownSession = (error: Error): boolean => error instanceof ApiError && (error.code === 'ERR_SESSION_NOT_FOUND' || error.status === 404);

export function ProbeSessionPage({ api, route }: PageProps<Extract<DashboardRoute, { page: 'probe-session' }>>) {
  const { sessionId } = route;
  const polled = usePolledData(() => api.get<ProbeSessionView>(`/sessions/${encodeURIComponent(sessionId)}`), REFRESH_MS, [api, sessionId], isUnknownSession);
  const { channel, log, version, past } = useProbeSessionChannel(api, sessionId);
  const [stopping, setStopping] = useState(false);
  const [stopProblem, setStopProblem] = useState<Error | null>(null);
  const session = polled.data !== null && 'probe' in polled.data ? polled.data : null;
  const unknown = polled.error !== null && isUnknownSession(polled.error);
  // Asked once: whether an unknown session is so because the service is no hub.
  const hubCheck = useApiData(() => api.get<unknown>('/probes'), [api]);
  const noHub = hubCheck.state === 'failed' && isNoHub(hubCheck.error);

  const stop = (probe: string) => {
    setStopping(true);
    setStopProblem(null);
    api.request('DELETE', `/probes/${encodeURIComponent(probe)}/sessions/${encodeURIComponent(sessionId)}`).then(
      () => setStopping(false),
      (error: unknown) => {
        setStopping(false);
        setStopProblem(error as Error);
      },
    );
  };

  return (
    <div class="live-page probe-session-page" data-session={sessionId} data-light={session?.light ?? ''}>
      <p class="back">
        <a href={routeHash({ page: 'live' })}>← Live: every probe session</a>
      </p>
      <h1>{session === null ? 'Probe session' : <>Live on probe <span data-field="probe">{session.probe}</span></>}</h1>
      {noHub && (
        <p class="empty no-hub">
          This service follows no probes, so it has no probe session <code>{sessionId}</code>: start it with <code>--catalog postgres://…</code> to be the hub of the fleet's probes (docs/fleet.md).
        </p>
      )}
      {unknown && !noHub && (
        <p class="empty unknown-session">
          No probe of this hub ran a session <code>{sessionId}</code>.
        </p>
      )}
      {polled.data !== null && session === null && (
        <p class="empty unknown-session">
          <code>{sessionId}</code> is a session of this service, not of a probe: the <a href={routeHash({ page: 'live' })}>live page</a> shows it.
        </p>
      )}
      {polled.error !== null && !isUnknownSession(polled.error) && <ErrorNotice error={polled.error} what="read the session" />}
      {session !== null && (
        <p class="live-summary">
          <ChannelStateBadge channel={channel} />
          <span class={`session-light-label light-${session.light}`}>
            <span class={`session-light ${session.light}`} aria-hidden="true" /> <span data-field="light">{LIGHT_NAMES[session.light]}</span>
          </span>
          <SessionFacts sessionId={session.sessionId} source={session.source} status={session.status} createdAt={session.createdAt} />
          {session.run > 1 && <span title="a restarted probe resumed the session">run {session.run}</span>}
          {session.stoppedAt === null && session.light !== 'offline' && (
            <button type="button" class="stop" disabled={stopping} onClick={() => stop(session.probe)}>
              Stop
            </button>
          )}
        </p>
      )}
      {stopProblem !== null && <ErrorNotice error={stopProblem} what="stop the session" />}
      {session !== null && <PastFindingsNote past={past} />}
      {session !== null && <LiveSessionPanels log={log} version={version} />}
    </div>
  );
}

function PastFindingsNote({ past }: { past: PastFindings }) {
  if (past.state === 'failed') return <ErrorNotice error={past.error} what="read the session's earlier findings" />;
  if (past.state === 'read' && past.stored > past.shown) {
    return (
      <p class="hint past-findings">
        The list begins with the latest {past.shown} of the {past.stored} finding records stored before this view opened; GET /sessions/{'{id}'}/findings pages through them all.
      </p>
    );
  }
  return null;
}
