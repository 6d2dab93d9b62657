/**
 * Start and stop, as the streaming module and the channel relay do them:
 * listening with an error that says why a port cannot be had, and a close
 * that runs once and that anyone can wait for (a command ends when its
 * services have closed, by a signal or by themselves).
 */
import type { FastifyInstance } from 'fastify';

/** Listens, and answers the port bound; closes the app and throws `failed(message, details, errno)` when it cannot (e.g. `the port is in use (another klvscope relay?)`). */
export async function listenOrExplain(
  app: FastifyInstance,
  host: string,
  port: number,
  command: string,
  failed: (message: string, details: { host: string; port: number }, errno: string | undefined) => Error,
): Promise<number> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `the port is in use (another ${command}?)` : (error as Error).message;
    throw failed(`cannot listen on ${host} port ${port}: ${reason}`, { host, port }, code);
  }
  return (app.server.address() as { port: number }).port;
}

/** `close` runs `stop` once, however often it is called; `closed` settles when it has run. */
export function closeOnce(stop: () => Promise<void>): { close: () => Promise<void>; closed: Promise<void> } {
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (settle = resolve));
  let closing: Promise<void> | null = null;
  return { close: () => (closing ??= stop().finally(settle)), closed };
}

/** The base URL of a server on `host` (an IPv6 address in brackets). */
export function serviceUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
