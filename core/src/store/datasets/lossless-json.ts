/**
 * JSON text for stored nested values (PMT streams, KLV items and values,
 * error details) that reads back exactly what was written. Plain JSON turns
 * NaN and ±Infinity into null and -0 into 0, and drops undefined: a replayed
 * observation would then differ from the emitted one. Values holding none of
 * those (nearly all) are stored as plain JSON; the others in a tagged form,
 * marked by a leading '~' (no JSON text starts with it), in which every
 * string is prefixed 's', and the special values are strings 'n<number>'
 * and 'u'.
 */

const TAGGED = '~';
const TAGGED_CODE = 0x7e;

/** The JSON text of `value` (plain JSON data, possibly with NaN, ±Infinity, -0 or undefined inside). */
export function encodeJsonValue(value: unknown): string {
  if (!holdsSpecialValue(value)) return JSON.stringify(value);
  return TAGGED + JSON.stringify(value, tagValue);
}

/** The value whose text `encodeJsonValue` gave. */
export function decodeJsonValue(text: string): unknown {
  if (text.charCodeAt(0) !== TAGGED_CODE) return JSON.parse(text);
  return untag(JSON.parse(text.slice(1)));
}

function isSpecialNumber(value: number): boolean {
  return !Number.isFinite(value) || Object.is(value, -0);
}

function holdsSpecialValue(value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      return isSpecialNumber(value);
    case 'undefined':
      return true;
    case 'object': {
      if (value === null) return false;
      if (Array.isArray(value)) return value.some(holdsSpecialValue);
      for (const key of Object.keys(value)) if (holdsSpecialValue((value as Record<string, unknown>)[key])) return true;
      return false;
    }
    default:
      return false;
  }
}

// JSON.stringify calls this for every value (object keys excepted) after toJSON.
function tagValue(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'number') return isSpecialNumber(value) ? `n${Object.is(value, -0) ? '-0' : String(value)}` : value;
  if (value === undefined) return 'u';
  return value;
}

// A walk rather than a JSON.parse reviver: a reviver returning undefined deletes the property.
function untag(value: unknown): unknown {
  if (typeof value === 'string') {
    switch (value.charCodeAt(0)) {
      case 0x73: // 's'
        return value.slice(1);
      case 0x6e: // 'n': Number() reads '-0', 'NaN', 'Infinity' and '-Infinity' back exactly
        return Number(value.slice(1));
      case 0x75: // 'u'
        return undefined;
      default:
        throw new SyntaxError(`tagged JSON holds an untagged string '${value}'`);
    }
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = untag(value[i]);
    return value;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = untag(record[key]);
  }
  return value;
}
