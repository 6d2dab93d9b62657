/**
 * The shape of every klvscope error class: a stable `code` (the gateway maps
 * codes to HTTP statuses and the CLI to exit codes, in one place each), a
 * message for people, and details for machines. Each package subclasses it
 * with its own union of codes and its own name.
 */
export interface ErrorBody<C extends string> {
  code: C;
  message: string;
  details?: Readonly<Record<string, unknown>>;
}

export class CodedError<C extends string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The shape of the gateway's error body: `{ code, message, details }`. */
  toJSON(): ErrorBody<C> {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}
