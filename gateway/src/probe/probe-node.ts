/**
 * `klvscope probe`: live sessions next to the feeds, reporting to the
 * fleet's PostgreSQL (docs/fleet.md "Probes"). The probe takes its name in
 * fleet_probes and beats every second; its sessions' records go through
 * the outbox (probe-outbox.ts), which keeps them while the database is
 * away. The hub's commands (start or stop a session) wait in
 * probe_commands: the probe LISTENs for them, and looks at each heartbeat
 * too, so it needs no open port. A restarted probe takes up the sessions it
 * ran before it ended, and starts the sources it was given that none of
 * them already watches.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AnyCheck } from '@klvscope/core';
import type { LiveSource } from '@klvscope/adapters';
import {
  beatProbe,
  claimProbeCommands,
  claimProbeName,
  finishProbeCommand,
  listProbeSessions,
  migratePostgres,
  PostgresConnection,
  PostgresListener,
  PROBE_COMMANDS_CHANNEL,
  stopProbe,
  writeProbeBatch,
  type ProbeCommandRow,
  type ProbeSessionRow,
} from '@klvscope/adapters/postgres';
import { APP_VERSION } from '../app-version.js';
import { FleetError } from '../fleet/fleet-error.js';
import { ProbeOutbox } from './probe-outbox.js';
import { RESUMED_STATUSES } from './probe-records.js';
import { ProbeSession } from './probe-session.js';

/** A heartbeat older than this says the probe is gone (the hub shows it offline; another may take its name). */
export const OFFLINE_AFTER_MS = 3_000;
const HEARTBEAT_MS = 1_000;
/** How long a new probe waits for an earlier one of its name to go quiet before giving up. */
const NAME_WAIT_MS = 6_000;

export interface ProbeNodeOptions {
  catalogUrl: string;
  name: string;
  sources: readonly string[];
  openSource: (url: string) => Promise<LiveSource>;
  checks: readonly AnyCheck[];
  rules: Readonly<Record<string, unknown>>;
  noDataSeconds: number;
  bufferLimitBytes: number;
  log: (line: string) => void;
}

export class ProbeNode {
  readonly instance = randomUUID();
  private readonly sessions = new Map<string, ProbeSession>();
  private readonly connection: PostgresConnection;
  private readonly outbox: ProbeOutbox;
  private listener: PostgresListener | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private commands: Promise<void> = Promise.resolve();
  private stopping = false;

  private constructor(private readonly options: ProbeNodeOptions) {
    this.connection = new PostgresConnection(options.catalogUrl, { maxConnections: 3, applicationName: `klvscope-probe-${options.name}` });
    this.outbox = new ProbeOutbox({
      limitBytes: options.bufferLimitBytes,
      write: (batch) => writeProbeBatch(this.connection, options.name, batch),
      onDeliveryChange: (failing, error) =>
        options.log(failing ? `cannot write to ${this.connection.where} (${error instanceof Error ? error.message : String(error)}): keeping records, up to ${options.bufferLimitBytes} bytes` : `writing to ${this.connection.where} again`),
    });
  }

  /** Connects, takes the name, resumes and starts sessions; throws when the database cannot be reached or the name is taken. */
  static async start(options: ProbeNodeOptions): Promise<ProbeNode> {
    const probe = new ProbeNode(options);
    try {
      await migratePostgres(probe.connection);
      await probe.claimName();
      await probe.startSessions();
      // The hub lists the sessions as soon as the probe is up.
      await probe.outbox.flush();
    } catch (error) {
      await probe.stop();
      throw error;
    }
    probe.listener = new PostgresListener({
      url: options.catalogUrl,
      channels: [PROBE_COMMANDS_CHANNEL],
      applicationName: `klvscope-probe-${options.name}`,
      onNotification: (_channel, payload) => {
        if (payload === options.name) probe.takeCommands();
      },
      onConnected: () => probe.takeCommands(),
    });
    probe.heartbeat = setInterval(() => void probe.beat(), HEARTBEAT_MS);
    return probe;
  }

  get name(): string {
    return this.options.name;
  }

  /** Ends every session as 'interrupted' (the next start of this probe takes them up), writes what is left, leaves. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.listener?.close();
    await this.commands;
    await Promise.all([...this.sessions.values()].map((session) => session.stop('interrupted')));
    await this.outbox.close(5_000);
    await stopProbe(this.connection, this.options.name, this.instance).catch(() => undefined);
    await this.connection.end();
  }

  private async claimName(): Promise<void> {
    const deadline = Date.now() + NAME_WAIT_MS;
    let told = false;
    const probe = { name: this.options.name, instance: this.instance, host: hostname(), pid: process.pid, version: APP_VERSION, startedMs: Date.now(), bufferLimitBytes: this.options.bufferLimitBytes };
    while (!(await claimProbeName(this.connection, probe, OFFLINE_AFTER_MS))) {
      if (Date.now() > deadline) {
        throw new FleetError('ERR_PROBE_NAME_IN_USE', `a probe named '${this.options.name}' is running (its heartbeat is recent): give this one another --name`, { name: this.options.name });
      }
      if (!told) this.options.log(`waiting for the earlier probe '${this.options.name}' to go quiet`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  private async startSessions(): Promise<void> {
    const earlier = (await listProbeSessions(this.connection, this.options.name)).filter((row) => RESUMED_STATUSES.includes(row.status));
    for (const row of earlier) {
      await this.startSession(row.source, row).catch((error: unknown) => this.options.log(`could not resume session ${row.id} on ${row.source}: ${error instanceof Error ? error.message : String(error)}`));
    }
    for (const source of this.options.sources) {
      if (![...this.sessions.values()].some((session) => session.source === source)) await this.startSession(source, null);
    }
  }

  /** Opens the source and starts a session on it: a new one, or `earlier` taken up again in its next run. */
  private async startSession(url: string, earlier: ProbeSessionRow | null): Promise<ProbeSession> {
    const source = await this.options.openSource(url);
    let session: ProbeSession;
    try {
      session = new ProbeSession({
        id: earlier?.id ?? randomUUID(),
        source,
        checks: this.options.checks,
        rules: this.options.rules,
        noDataSeconds: this.options.noDataSeconds,
        probe: this.options.name,
        run: (earlier?.run ?? 0) + 1,
        createdMs: earlier?.createdMs ?? Date.now(),
        outbox: this.outbox,
      });
    } catch (error) {
      await source.close();
      throw error;
    }
    this.sessions.set(session.id, session);
    this.options.log(`${earlier ? 'resumed' : 'started'} session ${session.id} on ${url}`);
    return session;
  }

  private async beat(): Promise<void> {
    const alive = await beatProbe(this.connection, this.options.name, this.instance, { bufferedBytes: this.outbox.bufferedBytes, dropped: { ...this.outbox.dropped } }).catch(() => null);
    if (alive === false) this.options.log(`another probe took the name '${this.options.name}' while this one was cut off`);
    // Commands are looked for each second too, in case a notification was missed while the listener reconnected.
    if (alive) this.takeCommands();
  }

  /** Carries out the commands waiting for this probe, one claim at a time. */
  private takeCommands(): void {
    if (this.stopping) return;
    this.commands = this.commands.then(async () => {
      const commands = await claimProbeCommands(this.connection, this.options.name).catch(() => []);
      for (const command of commands) await this.carryOut(command);
    });
  }

  private async carryOut(command: ProbeCommandRow): Promise<void> {
    let outcome: { result: unknown } | { error: string };
    try {
      outcome = { result: await this.execute(command) };
    } catch (error) {
      // The code goes along, so the hub answers as a single node would (a malformed source URL is the client's error).
      const code = (error as { code?: unknown }).code;
      outcome = { error: JSON.stringify({ code: typeof code === 'string' ? code : null, message: error instanceof Error ? error.message : String(error) }) };
    }
    await finishProbeCommand(this.connection, command.id, outcome).catch((error: unknown) =>
      this.options.log(`could not report command ${command.id}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private async execute(command: ProbeCommandRow): Promise<unknown> {
    const body = command.body as { source?: unknown; sessionId?: unknown };
    if (command.kind === 'start' && typeof body.source === 'string') {
      const session = await this.startSession(body.source, null);
      // Written before the answer, so the hub can show the session as soon as it has it.
      await this.outbox.flush();
      return session.row();
    }
    if (command.kind === 'stop' && typeof body.sessionId === 'string') {
      const session = this.sessions.get(body.sessionId);
      if (!session) throw new Error(`probe '${this.options.name}' runs no session '${body.sessionId}'`);
      await session.stop('stopped');
      this.sessions.delete(session.id);
      await this.outbox.flush();
      return session.row();
    }
    throw new Error(`probe '${this.options.name}' does not know the command '${command.kind}'`);
  }
}
