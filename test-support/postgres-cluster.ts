/**
 * A throwaway PostgreSQL cluster for the fleet tests (DESIGN.md "The fleet"):
 * Debian's `postgresql` binaries, `initdb` and `pg_ctl` in a temporary
 * folder on a free port, removed after. PostgreSQL refuses to run as root,
 * so as root the cluster runs as the `postgres` user (the package makes it).
 * Never a fake PostgreSQL: where the binaries are missing the tests skip,
 * except under CI=true, where that is a failure (requirePostgres).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const POSTGRES_PACKAGE_HINT = "Debian's postgresql package (apt-get install postgresql)";

/** The folder of initdb and pg_ctl: the newest /usr/lib/postgresql/N/bin, else the PATH's. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const found = spawnSync('sh', ['-c', 'dirname "$(command -v initdb)"'], { encoding: 'utf8' });
  const dir = found.status === 0 ? found.stdout.trim() : '';
  return dir !== '' && dir !== '.' && existsSync(join(dir, 'pg_ctl')) ? dir : null;
}

/** Why no cluster can be started here (a message for `this.skip()`), or null when one can. */
export function postgresUnavailableReason(): string | null {
  if (postgresBinDir() === null) return `PostgreSQL's initdb and pg_ctl were not found: install ${POSTGRES_PACKAGE_HINT}`;
  if (isRoot() && postgresUserIds() === null) return `running as root needs the 'postgres' user to run the cluster: install ${POSTGRES_PACKAGE_HINT}`;
  return null;
}

/** In a mocha `before`: skips the suite where no cluster can be started, but fails under CI=true, where the package must be installed. */
export function requirePostgres(context: Mocha.Context): void {
  const reason = postgresUnavailableReason();
  if (reason === null) return;
  if (process.env.CI === 'true') throw new Error(`the fleet tests need PostgreSQL under CI: ${reason}`);
  console.log(`    skipped: ${reason}`);
  context.skip();
}

export interface PostgresClusterOptions {
  /** Addresses to listen on besides the socket folder; default 127.0.0.1. */
  listenAddresses?: string;
}

export class PostgresCluster {
  #running = false;

  private constructor(
    readonly dataDir: string,
    readonly port: number,
    private readonly binDir: string,
  ) {}

  /** initdb (trust authentication: a test cluster on this machine only) and start. */
  static async start(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
    const binDir = postgresBinDir();
    const reason = postgresUnavailableReason();
    if (binDir === null || reason !== null) throw new Error(reason ?? 'no PostgreSQL binaries');
    const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-pg-'));
    const ids = isRoot() ? postgresUserIds() : null;
    if (ids) chownSync(dataDir, ids.uid, ids.gid);
    const cluster = new PostgresCluster(dataDir, await freeTcpPort(), binDir);
    cluster.run('initdb', ['-D', join(dataDir, 'data'), '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const listen = options.listenAddresses ?? '127.0.0.1';
    // Connections from the tests' network namespaces arrive over veth pairs: trust them too (nothing else reaches this machine).
    if (listen !== '127.0.0.1') appendFileSync(join(dataDir, 'data', 'pg_hba.conf'), 'host all all 0.0.0.0/0 trust\n');
    cluster.options = `-p ${cluster.port} -k ${dataDir} -c listen_addresses='${listen}' -c fsync=off -c max_connections=200`;
    cluster.startServer();
    return cluster;
  }

  private options = '';

  /** A connection URL to `database` (default postgres) over TCP. */
  url(database = 'postgres', host = '127.0.0.1'): string {
    return `postgres://postgres@${host}:${this.port}/${database}`;
  }

  /** Makes a new empty database and returns its URL. */
  createDatabase(name: string): string {
    this.run(join(this.binDir, 'psql'), ['-h', this.dataDir, '-p', String(this.port), '-U', 'postgres', '-q', '-c', `CREATE DATABASE "${name}"`], { absolute: true });
    return this.url(name);
  }

  /** Stops the server at once (as a crash or an outage would), keeping its data. */
  stopServer(): void {
    if (!this.#running) return;
    this.run('pg_ctl', ['-D', join(this.dataDir, 'data'), '-m', 'immediate', '-w', 'stop']);
    this.#running = false;
  }

  /** Starts the server again on the same port and data. */
  startServer(): void {
    if (this.#running) return;
    this.run('pg_ctl', ['-D', join(this.dataDir, 'data'), '-l', join(this.dataDir, 'server.log'), '-o', this.options, '-w', '-t', '60', 'start']);
    this.#running = true;
  }

  /** Stops the server and removes its folder. */
  remove(): void {
    try {
      this.stopServer();
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }

  private run(program: string, args: readonly string[], options: { absolute?: boolean } = {}): void {
    const path = options.absolute ? program : join(this.binDir, program);
    const asPostgres = isRoot() ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
    execFileSync(asPostgres[0] as string, asPostgres[1] as string[], { stdio: ['ignore', 'pipe', 'pipe'], cwd: this.dataDir });
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function postgresUserIds(): { uid: number; gid: number } | null {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A TCP port free on 127.0.0.1 now (the kernel's pick, released for the server to take). */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
