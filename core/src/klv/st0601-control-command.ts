/**
 * ST 0601 item 115, Control Command: a VLP of the command ID (BER-OID), the
 * command string (BER length + UTF-8) and an optional 8-byte time stamp (µs
 * since 1970). The item may repeat, one per command (ST 0601.17 item 115).
 */
import { encodeBerLength } from './ber-length.js';
import { encodeBerOid } from './ber-oid.js';
import { encodeUnsigned, requireNumber } from './big-endian-integer.js';
import { encodeUtf8, requireText } from './klv-string.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

export interface St0601ControlCommand {
  readonly id: number;
  readonly command: string;
  /** µs since 1970-01-01T00:00:00Z, when sent. */
  readonly timestamp?: number;
}

export const st0601ControlCommandCodec: ValueCodec = {
  valueType: 'VLP',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const id = reader.berOid('command ID');
    const command = reader.utf8(reader.berLength('command string length'), 'command string');
    if (reader.remaining === 0) return reader.finish<St0601ControlCommand>({ id, command });
    if (reader.remaining !== 8) reader.fail(`command time stamp is 8 bytes, got ${reader.remaining}`);
    const timestamp = reader.unsigned(8, 'command time stamp');
    return reader.finish<St0601ControlCommand>({ id, command, timestamp });
  },
  encode(value: unknown): Uint8Array {
    const record = requireRecord(value, 'control command');
    const text = encodeUtf8(requireText(record.command, 'command string'));
    const parts = [encodeBerOid(requireNumber(record.id, 'command ID')), encodeBerLength(text.length), text];
    if (record.timestamp !== undefined && record.timestamp !== null) parts.push(encodeUnsigned(requireNumber(record.timestamp, 'command time stamp'), 8));
    return concatBytes(parts);
  },
};
