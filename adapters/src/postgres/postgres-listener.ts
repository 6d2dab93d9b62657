/**
 * A connection that LISTENs on channels and comes back by itself: when the
 * server goes away, it tries again every `retryMs` and, once connected
 * again, says so (`onConnected`), for the caller to read what it may have
 * missed meanwhile: notifications are not kept for a listener that was away.
 */
import pg from 'pg';

export interface PostgresListenerOptions {
  url: string;
  channels: readonly string[];
  onNotification: (channel: string, payload: string) => void;
  /** After each (re)connection, once every LISTEN is in place. */
  onConnected?: () => void;
  applicationName?: string;
  /** Default 1,000 ms. */
  retryMs?: number;
}

export class PostgresListener {
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;
  #connected = false;

  constructor(private readonly options: PostgresListenerOptions) {
    void this.connect();
  }

  get connected(): boolean {
    return this.#connected;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.options.url, application_name: this.options.applicationName ?? 'klvscope-listener', connectionTimeoutMillis: 5_000 });
    let lost = false;
    const reconnect = (): void => {
      if (lost) return;
      lost = true;
      this.#connected = false;
      if (this.#client === client) this.#client = null;
      void client.end().catch(() => undefined);
      if (!this.#closed) this.#retry = setTimeout(() => void this.connect(), this.options.retryMs ?? 1_000);
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', (message) => this.options.onNotification(message.channel, message.payload ?? ''));
    try {
      await client.connect();
      for (const channel of this.options.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      reconnect();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#connected = true;
    this.options.onConnected?.();
  }
}
