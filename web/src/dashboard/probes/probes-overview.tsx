/**
 * The hub's overview on the live page: every probe of the fleet (its state,
 * and its buffer and drops when the database cannot keep up) and a tile for
 * each of its sessions, read from GET /probes every second. A tile shows
 * the session's light (sound, warning, error, silent, probe offline; an
 * ended one greyed), its probe, source, bit rate with a sparkline of the
 * last two minutes, and its last finding; it opens the session's live view.
 * On a service that is no hub (409 ERR_FLEET_DISABLED) one line says so.
 */
import { ApiError, type ApiClient } from '../api-client.js';
import { routeHash } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import { formatBitrate } from '../../shared/bitrate-format.js';
import { formatClockTime } from '../live/clock-time.js';
import { usePolledData, type PolledData } from '../use-polled-data.js';
import type { ProbeSessionView, ProbeView, SessionLight } from './probe-wire.js';
import { SessionSparkline } from './session-sparkline.js';
import './probes.css';

const REFRESH_MS = 1_000;
/** A probe's buffer shows on its group from this share of its bound (a second's batch is always in it). */
const BUFFER_WORTH_SHOWING = 0.1;

export const LIGHT_NAMES: Record<SessionLight, string> = { sound: 'sound', warning: 'warning', error: 'error', silent: 'silent', offline: 'probe offline', ended: 'ended' };
/** Worst first: the order of the summary's counts. */
const LIGHT_ORDER: readonly SessionLight[] = ['error', 'warning', 'offline', 'silent', 'sound', 'ended'];

export function isNoHub(error: Error): boolean {
  return error instanceof ApiError && error.code === 'ERR_FLEET_DISABLED';
}

/** GET /probes every second, for the live page (which also needs to know whether the service is a hub). */
export function useProbes(api: ApiClient): PolledData<{ probes: ProbeView[] }> {
  return usePolledData(() => api.get<{ probes: ProbeView[] }>('/probes'), REFRESH_MS, [api], isNoHub);
}

export function ProbesOverview({ polled }: { polled: PolledData<{ probes: ProbeView[] }> }) {
  if (polled.error !== null && isNoHub(polled.error)) {
    return (
      <p class="empty no-hub">
        This service follows no probes: it shows its own live session below. To watch feeds on other networks, start it with <code>--catalog postgres://…</code> and run{' '}
        <code>klvscope probe</code> next to each feed (docs/fleet.md).
      </p>
    );
  }
  // Until the first answer nothing is drawn: a service that is no hub shows its own session as before.
  if (polled.data === null) return polled.error === null ? null : <ErrorNotice error={polled.error} what="read the probes" />;
  const probes = [...polled.data.probes].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section class="panel probes-overview" aria-label="probes">
      <h2>
        Probes <span class="count" data-field="probesSummary">{summary(probes)}</span>
      </h2>
      {polled.error !== null && <ErrorNotice error={polled.error} what="read the probes again (the tiles show the last answer)" />}
      {probes.length === 0 ? (
        <p class="empty">No probe has reported yet: run klvscope probe --catalog URL --name NAME --source URL next to a feed.</p>
      ) : (
        <div class="probe-groups">
          {probes.map((probe) => (
            <ProbeGroup key={probe.name} probe={probe} />
          ))}
        </div>
      )}
    </section>
  );
}

/** A probe's state and its sessions' tiles. */
function ProbeGroup({ probe }: { probe: ProbeView }) {
  const dropped = Object.values(probe.dropped).reduce((sum, n) => sum + n, 0);
  const state = probe.stoppedAt !== null ? 'stopped' : probe.online ? 'online' : 'offline';
  const bufferShare = probe.bufferLimitBytes > 0 ? probe.bufferedBytes / probe.bufferLimitBytes : 0;
  const sessions = [...probe.sessions].sort(tileOrder);
  return (
    <section class={`probe-group ${state}`} data-probe={probe.name} data-state={state} aria-label={`probe ${probe.name}`}>
      <h3 class="probe-head" title={`pid ${probe.pid}, klvscope ${probe.version}, started ${probe.startedAt}`}>
        <span class="probe-name">{probe.name}</span> <span class="probe-host">{probe.host}</span> <span class={`probe-state ${state}`}>{state}</span>
        {state !== 'online' && (
          <span class="probe-heard">
            last heard <span data-clock>{formatClockTime(Date.parse(probe.lastHeartbeat))}</span>
          </span>
        )}
        {/* Records wait in the probe while the database cannot take them: worth a look once the buffer fills. */}
        {bufferShare >= BUFFER_WORTH_SHOWING && <span class="bad">buffer {(bufferShare * 100).toFixed(0)} % full</span>}
        {dropped > 0 && <span class="bad">{dropped} records dropped</span>}
      </h3>
      {sessions.length === 0 ? (
        <p class="empty">No session: start one with POST /sessions/live and its probe, or klvscope probe --source.</p>
      ) : (
        <div class="probe-tiles">
          {sessions.map((session) => (
            <SessionTile key={session.sessionId} session={session} />
          ))}
        </div>
      )}
    </section>
  );
}

function SessionTile({ session }: { session: ProbeSessionView }) {
  const finding = session.lastFinding;
  return (
    <a
      class={`probe-tile light-${session.light}`}
      href={routeHash({ page: 'probe-session', sessionId: session.sessionId })}
      data-session={session.sessionId}
      data-probe={session.probe}
      data-light={session.light}
    >
      <span class="tile-head">
        <span class={`session-light ${session.light}`} aria-hidden="true" />
        <span class="light-name" data-field="light">
          {LIGHT_NAMES[session.light]}
        </span>
        <span class="probe-name" data-field="probe">
          {session.probe}
        </span>
      </span>
      <code class="tile-source" data-field="source">
        {session.source}
      </code>
      <span class="tile-rate">
        <span data-field="bitrate">{session.bitsPerSecond === null ? '—' : formatBitrate(session.bitsPerSecond)}</span>
        <span class="tile-status" data-field="status">
          {session.status}
        </span>
      </span>
      <SessionSparkline bitsPerSecond={session.sparkline} />
      <span class="tile-finding" data-field="lastFinding" data-severity={finding?.severity ?? ''} title={finding?.message}>
        {finding === null ? (
          'no finding'
        ) : (
          <>
            <span data-clock>{formatClockTime(finding.receivedAt ?? finding.emittedAt)}</span> <span class="severity">{finding.severity}</span> {finding.checkId}: {finding.message}
          </>
        )}
      </span>
    </a>
  );
}

/** Running sessions first, then by source: a tile keeps its place while its session runs. */
function tileOrder(a: ProbeSessionView, b: ProbeSessionView): number {
  return Number(a.light === 'ended') - Number(b.light === 'ended') || a.source.localeCompare(b.source) || a.createdAt.localeCompare(b.createdAt);
}

function summary(probes: readonly ProbeView[]): string {
  const sessions = probes.flatMap((probe) => probe.sessions);
  const online = probes.filter((probe) => probe.online).length;
  const byLight = LIGHT_ORDER.map((light) => [light, sessions.filter((session) => session.light === light).length] as const).filter(([, n]) => n > 0);
  const lights = byLight.map(([light, n]) => `${n} ${LIGHT_NAMES[light]}`).join(', ');
  return `${probes.length} ${probes.length === 1 ? 'probe' : 'probes'}, ${online} online · ${sessions.length} ${sessions.length === 1 ? 'session' : 'sessions'}${lights === '' ? '' : `: ${lights}`}`;
}
