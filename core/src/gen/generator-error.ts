/**
 * The one error class of the generator, with a stable `code` the CLI and the
 * gateway can map (DESIGN.md "Errors").
 */
export type GeneratorErrorCode =
  /** An option is out of range or inconsistent (e.g. two streams on one PID). */
  | 'ERR_GENERATOR_OPTIONS'
  /** A fault spec cannot be parsed or names an unknown kind. */
  | 'ERR_FAULT_SPEC'
  /** A fault found no packet to act on before the end of the stream. */
  | 'ERR_FAULT_NOT_PLACED';

export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';

  constructor(
    readonly code: GeneratorErrorCode,
    message: string,
  ) {
    super(message);
  }
}
