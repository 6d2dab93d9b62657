/**
 * The signed-in console: holds what the relay reported (platforms and their
 * channels, bitrates, detections, the server's state) and passes it down.
 * Platforms and bitrates are polled each second (a state changes by itself:
 * no-signal, error), detections and the server's state every 5 s and after
 * a command; the next poll starts when the last one ended, so a slow relay
 * is not piled up on.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { mergeBitrates, type BitrateHistory } from './bitrate-history.js';
import { clockTime } from './detection-summary.js';
import { ErrorNotice, asRelayError, type ConsoleError } from './error-notice.js';
import { PlatformPanel } from './platform-panel.js';
import type { ChannelCommand, PlatformCommand, RelayInfo, RelayApi, RelayPlatform, ServerStatusRecord, StreamBitrates, StreamDetection } from './relay-api.js';
import type { RelayConsoleProbe } from './relay-console-probe.js';

const POLL_MS = 1000;
const SLOW_POLL_EVERY = 5;

export interface RelayOverviewProps {
  api: RelayApi;
  probe: RelayConsoleProbe;
  /** The relay refused the key (it changed, or the relay restarted with another). */
  onKeyRefused: (refusal: ConsoleError) => void;
  onSignOut: () => void;
}

export function RelayOverview({ api, probe, onKeyRefused, onSignOut }: RelayOverviewProps) {
  const [info, setInfo] = useState<RelayInfo | null>(null);
  const [platforms, setPlatforms] = useState<RelayPlatform[] | null>(null);
  const [bitrates, setBitrates] = useState<StreamBitrates[]>([]);
  const [history, setHistory] = useState<BitrateHistory>(new Map());
  const [detections, setDetections] = useState<StreamDetection[]>([]);
  const [serverStatus, setServerStatus] = useState<ServerStatusRecord | null>(null);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const [pollError, setPollError] = useState<ConsoleError | null>(null);
  const [commandError, setCommandError] = useState<ConsoleError | null>(null);
  const [pending, setPending] = useState<ReadonlyMap<string, string>>(new Map());
  const polls = useRef(0);

  const refresh = useCallback(
    async (slowToo: boolean) => {
      const [nextPlatforms, nextBitrates] = await Promise.all([api.platforms(), api.bitrates()]);
      if (slowToo) {
        const [nextDetections, nextStatus] = await Promise.all([api.detections(), api.latestServerStatus()]);
        setDetections(nextDetections);
        setServerStatus(nextStatus);
      }
      setPlatforms(nextPlatforms);
      setBitrates(nextBitrates);
      setHistory((kept) => mergeBitrates(kept, nextBitrates));
      setUpdatedAt(new Date());
      polls.current += 1;
    },
    [api],
  );

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
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tick = 0;
    const poll = async () => {
      try {
        await refresh(tick % SLOW_POLL_EVERY === 0);
        setPollError(null);
      } catch (error) {
        if (failed('refresh', error, setPollError)) return;
      }
      tick += 1;
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    api.info().then(setInfo, () => undefined);
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, refresh, failed]);

  const run = async (target: string, action: string, command: () => Promise<unknown>, label: string) => {
    setPending((now) => new Map(now).set(target, action));
    try {
      await command();
      setCommandError(null);
      await refresh(true);
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

  const bitratesById = useMemo(() => new Map(bitrates.map((b) => [b.channelId, b])), [bitrates]);
  const detectionsById = useMemo(() => new Map(detections.map((d) => [d.channelId, d])), [detections]);
  const windowEndMs = Math.max(0, ...[...history.values()].map((points) => points.at(-1)?.timeMs ?? 0));
  const shownError = commandError ?? pollError;

  useEffect(() => {
    Object.assign(probe, {
      signedIn: true,
      polls: polls.current,
      platforms: platforms ?? [],
      bitrates,
      sparklines: Object.fromEntries(history),
      detections,
      serverStatus,
      errorCode: shownError?.error.code ?? null,
    });
  }, [probe, platforms, bitrates, history, detections, serverStatus, shownError]);

  return (
    <>
      <div class="server-line">
        <span data-field="server-state" class={`state state-${serverStatus?.state ?? 'unknown'}`}>
          {serverStatus === null ? 'server state unknown' : `server ${serverStatus.state}`}
        </span>
        {serverStatus !== null && <span>since {new Date(serverStatus.startedAt).toLocaleString('en-GB', { hour12: false })}</span>}
        {serverStatus !== null && serverStatus.errorMessage !== '' && <span class="problem">{serverStatus.errorMessage}</span>}
        {info !== null && <span class="muted">{`${info.product} ${info.version}${info.licence === 'demo' ? ' (demo licence)' : ''}`}</span>}
        <span class="muted">{updatedAt === null ? 'loading…' : `updated ${clockTime(updatedAt.toISOString())}`}</span>
        <a href="api/docs/" target="_blank" rel="noopener">
          API docs
        </a>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </div>
      {shownError !== null && <ErrorNotice notice={shownError} onDismiss={commandError !== null ? () => setCommandError(null) : undefined} />}
      {platforms !== null && platforms.length === 0 && <p class="muted">No platforms yet: create them with POST /api/platforms or /api/platforms/upload (see the API docs).</p>}
      {platforms?.map((platform) => (
        <PlatformPanel
          key={platform.id}
          platform={platform}
          bitrates={bitratesById}
          history={history}
          windowEndMs={windowEndMs}
          detections={detectionsById}
          pending={pending}
          onPlatformCommand={onPlatformCommand}
          onChannelCommand={onChannelCommand}
        />
      ))}
    </>
  );
}
