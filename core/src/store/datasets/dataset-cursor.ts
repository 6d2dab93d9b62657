/**
 * The paging cursor of the raw datasets: opaque to clients, it holds the
 * `seq` of the last row of a page. The next page is the rows after it
 * (keyset paging), so a page stays right when rows before it change and
 * costs the same at any depth, unlike an offset.
 */
import { DatasetError } from './dataset-error.js';

const CURSOR_TEXT = /^v1:(\d{1,16})$/;

export function encodeDatasetCursor(lastSeq: number): string {
  return Buffer.from(`v1:${lastSeq}`, 'utf8').toString('base64url');
}

/** The `seq` a cursor holds, or ERR_DATASET_INVALID_PARAMETER for text no page gave. */
export function decodeDatasetCursor(cursor: string): number {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  const seq = match === null ? NaN : Number(match[1]);
  if (!Number.isSafeInteger(seq)) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `cursor '${cursor}' is not one a dataset page gave (use the nextCursor of the previous page)`, {
      parameter: 'cursor',
      value: cursor,
    });
  }
  return seq;
}
