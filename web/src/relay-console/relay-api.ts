/**
 * The channel relay's REST interface as the console calls it
 * (spec/channel-relay.md, docs/relay.md), on paths relative to the page
 * (`api/...`), so the console works wherever the relay serves it. Every
 * request carries the key in X-API-Key. Only the fields the console shows
 * are typed here.
 */

export interface AlarmLimits {
  minBitrate: number | null;
  maxBitrate: number | null;
  maxSilenceMs: number | null;
  pids: Array<{ pid: number; minBitrate: number | null; maxBitrate: number | null }>;
  windowSeconds: number;
}

export interface RelayChannel {
  channelId: string;
  name: string;
  input: string;
  outputs: string[];
  enabled: boolean;
  alarms: AlarmLimits;
  state: string;
  outputState: Array<{ url: string; state: string; error: string | null }>;
  error: string | null;
}

export interface RelayPlatform {
  id: string;
  name: string;
  description: string;
  channels: RelayChannel[];
}

export interface BitrateReading {
  time: string;
  inputBitrate: number;
  outputBitrate: number;
}

export interface ActiveAlarm {
  kind: string;
  pid: number | null;
  limit: number;
  value: number;
  since: string;
  message: string;
}

export interface InputFigures {
  since: string;
  sender: string | null;
  silentMs: number;
  datagrams: number;
  bytes: number;
  rtp: boolean;
  rtpLost: number;
  kernelDrops: number;
  applicationLoss: number;
}

/** An element of GET /api/bitrates (`streamBitrates`), as the feed sends it (without `limits`: the channel's `alarms` says them). */
export interface StreamBitrates {
  channelId: string;
  state: string;
  /** The end of the latest second measured; null before one. */
  time: string | null;
  inputBitrate: number;
  outputBitrate: number;
  /** In the channel's `outputs` order (the feed leaves `url` out after its first message). */
  outputs: Array<{ url?: string; bitrate: number; sent: number; refused: number }>;
  pids: Array<{ pid: number; bitrate: number; packets: number; continuityErrors: number }>;
  /** Null while the channel is stopped. */
  input: InputFigures | null;
  alarms: ActiveAlarm[];
  history: readonly BitrateReading[];
}

/** One message of GET /api/events: everything at first, then what changed (gateway/src/relay/console-feed.ts). */
export interface ConsoleUpdate {
  time: string;
  platforms?: RelayPlatform[];
  channels?: RelayChannel[];
  bitrates?: StreamBitrates[];
  detections?: StreamDetection[];
  serverStatus?: ServerStatusRecord | null;
}

/** An element of GET /api/streamDetectionInfo. */
export interface StreamDetection {
  channelId: string;
  time: string;
  durationMs: number;
  bytes: number;
  bitrate: number;
  programs: Array<{ programNumber: number; streams: number[] }>;
  pids: Array<{ pid: number; role: string; packets: number; bitrate: number }>;
  video: { pid: number; codec: string; resolution: string | null } | null;
  /** Every elementary stream declared, by PID: video, audio, KLV, other data. */
  streams: Array<{ pid: number; kind: string; codec: string; bitrate: number }>;
  klv: Array<{ pid: number; carriage: string; standards: string[]; rateHz: number; checksumFailures: number }>;
  errors: Record<string, number>;
  klvErrors: Record<string, number>;
  /** Problems by source, type and severity, errors first. */
  problems: Array<{ source: string; type: string; severity: 'error' | 'warning' | 'info'; count: number }>;
  problem: string | null;
}

export interface ServerStatusRecord {
  id: number;
  startedAt: string;
  state: string;
  errorMessage: string;
}

/** GET /api/info (`Company`). */
export interface RelayInfo {
  product: string;
  version: string;
  licence: string;
}

export type ChannelCommand = 'start' | 'stop' | 'detect';
export type PlatformCommand = 'start' | 'stop';

/** What the relay refused, from its one error body {"error":{"code","message","details"}}; status 0 when it did not answer. */
export class RelayApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = undefined,
  ) {
    super(message);
  }

  /** A refused key: the console goes back to its sign-in form. */
  get keyRefused(): boolean {
    return this.status === 401;
  }
}

export class RelayApi {
  constructor(private readonly key: string) {}

  /** 200 only with the right key, even where other reads are open. */
  checkKey(): Promise<unknown> {
    return this.request('GET', 'auth/status');
  }

  info(): Promise<RelayInfo> {
    return this.request('GET', 'info');
  }

  platforms(): Promise<RelayPlatform[]> {
    // The largest page the relay gives: a console shows every platform.
    return this.request('GET', 'platforms?_limit=1000');
  }

  bitrates(): Promise<StreamBitrates[]> {
    return this.request('GET', 'bitrates');
  }

  detections(): Promise<StreamDetection[]> {
    return this.request('GET', 'streamDetectionInfo');
  }

  /**
   * Follows GET /api/events (server-sent events, read over fetch so that the key goes in its header)
   * and hands each update over, until `signal` aborts; rejects when the stream breaks or is refused.
   */
  async follow(onUpdate: (update: ConsoleUpdate) => void, signal: AbortSignal): Promise<void> {
    let response: Response;
    try {
      response = await fetch('api/events', { headers: { 'x-api-key': this.key }, signal });
    } catch (error) {
      throw new RelayApiError(0, 'NETWORK', `the relay did not answer GET /api/events: ${String(error)}`);
    }
    if (!response.ok || response.body === null) throw await this.refusal(response, 'GET', 'events');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new RelayApiError(0, 'NETWORK', 'the relay ended GET /api/events');
      buffered += value;
      // An event ends with a blank line; its data lines follow 'data: ' (the feed sends one per event).
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const data = buffered.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
        buffered = buffered.slice(end + 2);
        if (data !== undefined) onUpdate(JSON.parse(data.slice(6)) as ConsoleUpdate);
      }
    }
  }

  async latestServerStatus(): Promise<ServerStatusRecord | null> {
    const records = await this.request<ServerStatusRecord[]>('GET', 'serverStatus?_sort=id&_order=desc&_limit=1');
    return records[0] ?? null;
  }

  /** Resolves when the relay is done: after the detection for `detect` (3 s by default). */
  channelCommand(channelId: string, command: ChannelCommand): Promise<unknown> {
    return this.request('POST', 'channels/command', { channelId, command });
  }

  platformCommand(platformId: string, command: PlatformCommand): Promise<unknown> {
    return this.request('POST', `platforms/${encodeURIComponent(platformId)}/command?command=${command}`);
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'x-api-key': this.key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`api/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new RelayApiError(0, 'NETWORK', `the relay did not answer ${method} /api/${path}: ${String(error)}`);
    }
    if (!response.ok) throw await this.refusal(response, method, path);
    const text = await response.text();
    try {
      return (text === '' ? null : JSON.parse(text)) as T;
    } catch {
      // Not JSON (GET /api/health is text): null, the status says the rest.
      return null as T;
    }
  }

  /** The relay's error body {"error":{"code","message","details"}} of a refused request, as an error. */
  private async refusal(response: Response, method: string, path: string): Promise<RelayApiError> {
    const text = await response.text();
    let error: { code?: string; message?: string; details?: unknown } | undefined;
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error;
    } catch {
      // Not the error body: the status and text say it.
    }
    return new RelayApiError(response.status, error?.code ?? `HTTP_${response.status}`, error?.message ?? (text || `${response.statusText} (${method} /api/${path})`), error?.details);
  }
}
