/** A problem with how the CLI was called or with its input file: one line on stderr, exit code 2. */
export class UsageError extends Error {
  readonly code = 'ERR_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
