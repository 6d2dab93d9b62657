/**
 * Telling an unreachable PostgreSQL from a failed statement: a refused or
 * broken connection, or a server that is shutting down or starting, is
 * ERR_CATALOG_UNAVAILABLE (503 at the gateway: retry later); anything else
 * is passed on as it is.
 */
import { StoreError } from '@klvscope/core/store';

/** Node's socket errors that mean the server is not there (now). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

/** PostgreSQL SQLSTATEs of the same: class 08 (connection exception), and a server shutting down or starting up (57P01-57P03). */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

/** Whether `error` says the server cannot be reached now: a socket's or the server's own, or ERR_CATALOG_UNAVAILABLE made of one. */
export function isCatalogUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_CATALOG_UNAVAILABLE') return true;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || isUnavailableState(code))) return true;
  // node-postgres says these without a code.
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is not open|Cannot use a pool after calling end/i.test(error.message);
}

/** The error to throw for `error`: ERR_CATALOG_UNAVAILABLE naming `where` when the server cannot be reached, else `error` itself. */
export function catalogError(error: unknown, where: string): unknown {
  if (!isCatalogUnavailable(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreError('ERR_CATALOG_UNAVAILABLE', `the catalog's PostgreSQL at ${where} cannot be reached: ${reason}`, { catalog: where }, { cause: error });
}
