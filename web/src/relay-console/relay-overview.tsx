/**
 * The signed-in console: follows the relay's feed (GET /api/events: all of
 * it at first, then each second only what changed), holds what it reported
 * (platforms and their channels, bitrates, detections, the server's state)
 * and passes it down. A broken feed is shown and followed again after
 * RETRY_MS; a refused key signs out. With `#channel=ID` in the address, the
 * channel's detail page replaces the overview.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { SPARKLINE_WINDOW_MS, keepChannels, mergeReadings, newestReadingMs, pointsWithin, type BitrateHistory } from './bitrate-history.js';
import { ChannelDetail } from './channel-detail.js';
import { clockTime } from './detection-summary.js';
import { ErrorNotice, asRelayError, type ConsoleError } from './error-notice.js';
import { mergePidReadings, type PidHistory } from './pid-history.js';
import { PlatformPanel } from './platform-panel.js';
import type { ChannelCommand, ConsoleUpdate, PlatformCommand, RelayApi, RelayInfo, RelayPlatform, ServerStatusRecord, StreamBitrates, StreamDetection } from './relay-api.js';
import type { RelayConsoleProbe } from './relay-console-probe.js';

const RETRY_MS = 2000;

export interface RelayOverviewProps {
  api: RelayApi;
  probe: RelayConsoleProbe;
  /** The relay refused the key (it changed, or the relay restarted with another). */
  onKeyRefused: (refusal: ConsoleError) => void;
  onSignOut: () => void;
}

interface FeedState {
  platforms: RelayPlatform[] | null;
  bitrates: ReadonlyMap<string, StreamBitrates>;
  history: BitrateHistory;
  pidHistory: PidHistory;
  detections: ReadonlyMap<string, StreamDetection>;
  serverStatus: ServerStatusRecord | null;
  updatedAt: string | null;
}

const EMPTY: FeedState = { platforms: null, bitrates: new Map(), history: new Map(), pidHistory: new Map(), detections: new Map(), serverStatus: null, updatedAt: null };

/** The state after one message of the feed. */
function applyUpdate(state: FeedState, update: ConsoleUpdate): FeedState {
  let platforms = update.platforms ?? state.platforms;
  if (update.platforms === undefined && update.channels !== undefined && platforms !== null) {
    const changed = new Map(update.channels.map((c) => [c.channelId, c]));
    platforms = platforms.map((p) => ({ ...p, channels: p.channels.map((c) => changed.get(c.channelId) ?? c) }));
  }
  const listed = new Set((platforms ?? []).flatMap((p) => p.channels.map((c) => c.channelId)));
  const bitrates = new Map([...state.bitrates].filter(([id]) => listed.has(id)));
  for (const entry of update.bitrates ?? []) bitrates.set(entry.channelId, entry);
  const detections = new Map([...state.detections].filter(([id]) => listed.has(id)));
  for (const detection of update.detections ?? []) detections.set(detection.channelId, detection);
  return {
    platforms,
    bitrates,
    history: keepChannels(mergeReadings(state.history, update.bitrates ?? []), listed),
    pidHistory: mergePidReadings(state.pidHistory, update.bitrates ?? []),
    detections,
    serverStatus: update.serverStatus === undefined ? state.serverStatus : update.serverStatus,
    updatedAt: update.time,
  };
}

export function RelayOverview({ api, probe, onKeyRefused, onSignOut }: RelayOverviewProps) {
  const [info, setInfo] = useState<RelayInfo | null>(null);
  const [feed, setFeed] = useState<FeedState>(EMPTY);
  const [feedError, setFeedError] = useState<ConsoleError | null>(null);
  const [commandError, setCommandError] = useState<ConsoleError | null>(null);
  const [pending, setPending] = useState<ReadonlyMap<string, string>>(new Map());
  const [detailId, setDetailId] = useState<string | null>(() => channelOfFragment());
  const updates = useRef(0);

  /** A failure: a refused key signs out (true), anything else is shown. */
  const failed = useCallback(
    (action: string, error: unknown, show: (notice: ConsoleError) => void): boolean => {
      const notice = { action, error: asRelayError(error) };
      if (notice.error.keyRefused) onKeyRefused(notice);
      else show(notice);
      return notice.error.keyRefused;
    },
    [onKeyRefused],
  );

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = async () => {
      try {
        // Each connection starts with everything: what was held is replaced, not merged twice.
        let first = true;
        await api.follow((update) => {
          updates.current += 1;
          setFeed((state) => applyUpdate(first ? { ...EMPTY, history: state.history, pidHistory: state.pidHistory } : state, update));
          first = false;
          setFeedError(null);
        }, abort.signal);
      } catch (error) {
        if (abort.signal.aborted) return;
        if (failed('follow the relay', error, setFeedError)) return;
        timer = setTimeout(() => void follow(), RETRY_MS);
      }
    };
    api.info().then(setInfo, () => undefined);
    void follow();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [api, failed]);

  useEffect(() => {
    const onHashChange = () => setDetailId(channelOfFragment());
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const run = async (target: string, action: string, command: () => Promise<unknown>, label: string) => {
    setPending((now) => new Map(now).set(target, action));
    try {
      await command();
      setCommandError(null);
    } catch (error) {
      failed(label, error, setCommandError);
    } finally {
      setPending((now) => {
        const next = new Map(now);
        next.delete(target);
        return next;
      });
    }
  };
  const onChannelCommand = (channelId: string, command: ChannelCommand) => void run(`channel:${channelId}`, command, () => api.channelCommand(channelId, command), `${command} channel ${channelId}`);
  const onPlatformCommand = (platformId: string, command: PlatformCommand) => void run(`platform:${platformId}`, command, () => api.platformCommand(platformId, command), `${command} platform ${platformId}`);

  const { platforms, bitrates, history, pidHistory, detections, serverStatus, updatedAt } = feed;
  const windowEndMs = useMemo(() => newestReadingMs(history), [history]);
  const shownError = commandError ?? feedError;
  const relayNowMs = updatedAt === null ? 0 : Date.parse(updatedAt);

  useEffect(() => {
    Object.assign(probe, {
      signedIn: true,
      polls: updates.current,
      platforms: platforms ?? [],
      bitrates: [...bitrates.values()],
      sparklines: Object.fromEntries([...history].map(([id, points]) => [id, pointsWithin(points, windowEndMs, SPARKLINE_WINDOW_MS)])),
      detections: [...detections.values()],
      serverStatus,
      errorCode: shownError?.error.code ?? null,
    });
  }, [probe, platforms, bitrates, history, windowEndMs, detections, serverStatus, shownError]);

  const detailChannel = detailId === null ? undefined : platforms?.flatMap((p) => p.channels).find((c) => c.channelId === detailId);
  return (
    <>
      <div class="server-line">
        <span data-field="server-state" class={`state state-${serverStatus?.state ?? 'unknown'}`}>
          {serverStatus === null ? 'server state unknown' : `server ${serverStatus.state}`}
        </span>
        {serverStatus !== null && <span>since {new Date(serverStatus.startedAt).toLocaleString('en-GB', { hour12: false })}</span>}
        {serverStatus !== null && serverStatus.errorMessage !== '' && <span class="problem">{serverStatus.errorMessage}</span>}
        {info !== null && <span class="muted">{`${info.product} ${info.version}${info.licence === 'demo' ? ' (demo licence)' : ''}`}</span>}
        <span class="muted">{updatedAt === null ? 'loading…' : `updated ${clockTime(updatedAt)}`}</span>
        <a href="api/docs/" target="_blank" rel="noopener">
          API docs
        </a>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </div>
      {shownError !== null && <ErrorNotice notice={shownError} onDismiss={commandError !== null ? () => setCommandError(null) : undefined} />}
      {detailChannel !== undefined ? (
        <ChannelDetail
          channel={detailChannel}
          bitrates={bitrates.get(detailChannel.channelId)}
          points={history.get(detailChannel.channelId) ?? []}
          pidReadings={pidHistory.get(detailChannel.channelId) ?? []}
          relayNowMs={relayNowMs}
        />
      ) : (
        <>
          {platforms !== null && platforms.length === 0 && <p class="muted">No platforms yet: create them with POST /api/platforms or /api/platforms/upload (see the API docs).</p>}
          {platforms?.map((platform) => (
            <PlatformPanel
              key={platform.id}
              platform={platform}
              bitrates={bitrates}
              history={history}
              windowEndMs={windowEndMs}
              relayNowMs={relayNowMs}
              detections={detections}
              pending={pending}
              onPlatformCommand={onPlatformCommand}
              onChannelCommand={onChannelCommand}
            />
          ))}
        </>
      )}
    </>
  );
}

/** `#channel=ID`: the channel whose detail page is open; null for the overview. */
function channelOfFragment(): string | null {
  const match = /^#channel=(.+)$/.exec(location.hash);
  if (match === null) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}
