/**
 * The logging service core expects. Core logs little (findings are data);
 * the gateway registers a real logger in the composition root.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Writes one line per entry at or above `minLevel` to stderr, so stdout stays free for command output. */
export function createConsoleLogger(minLevel: LogLevel = 'warn'): Logger {
  const write =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (LEVEL_RANK[level] < LEVEL_RANK[minLevel]) return;
      const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
      process.stderr.write(`${level}: ${message}${suffix}\n`);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** Discards everything (tests, library use). */
export const silentLogger: Logger = Object.freeze({
  debug: (): void => {},
  info: (): void => {},
  warn: (): void => {},
  error: (): void => {},
});
