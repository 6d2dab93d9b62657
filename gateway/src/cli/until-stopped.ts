/**
 * How a command that runs services waits: until each has closed, by itself
 * (the streaming module's `exit`) or on SIGINT/SIGTERM, which close them all
 * (requests in flight end, stores are flushed). A second signal exits at
 * once. Call it before printing that the services run, so that a signal
 * right after the banner is handled.
 */
export interface StoppableService {
  close(): Promise<void>;
  /** Settles when the service has closed by itself too; without it, the service counts as closed once a signal's close is done. */
  closed?: Promise<void>;
}

export function untilStopped(services: readonly StoppableService[], what: string): Promise<void> {
  const settles: Array<() => void> = [];
  const closed = services.map((service, i) => service.closed ?? new Promise<void>((resolve) => (settles[i] = resolve)));
  return new Promise((resolve, reject) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`klvscope: ${signal} again: exiting without waiting\n`);
        process.exit(1);
      }
      stopping = true;
      process.stderr.write(`klvscope: ${signal}: stopping ${what}\n`);
      Promise.all(services.map((service, i) => service.close().then(() => settles[i]?.()))).catch(reject);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    Promise.all(closed).then(() => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    }, reject);
  });
}
