/**
 * A Node system error as a short phrase for people, with its errno:
 * "no space left on device (ENOSPC)". Node's own message repeats the code
 * and names the syscall ("ENOSPC: no space left on device, write"), which
 * reads badly inside a sentence that already says what was attempted.
 */
export function systemErrorReason(cause: unknown): string {
  const errno = (cause as NodeJS.ErrnoException | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (typeof errno !== 'string') return message;
  // "CODE: description, syscall 'path'" -> "description".
  const match = /^[A-Z0-9_]+: (.*?)(?:, \w+(?: '.*')?)?$/.exec(message);
  return `${match ? match[1] : message} (${errno})`;
}
