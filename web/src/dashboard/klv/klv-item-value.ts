/**
 * A decoded KLV item's value as the packet view writes it: numbers with
 * thousands separated and their own decimals, a time stamp (µs since 1970)
 * also as UTC, a nested set (ST 0102 security, ST 0601 packs) as its items
 * in one line, other structures as compact JSON.
 */
import { formatTimestampMicros } from '../../viewer/klv-value-format.js';

/** From 2001 on, in µs: a count of microseconds this large is a date (ST 0601 item 2, ST 0903 item 2). */
const TIMESTAMP_MICROS_FROM = 978_307_200_000_000;

interface NestedItem {
  name: string;
  value: unknown;
  units: string | null;
}

function isNestedSet(value: unknown): value is { items: NestedItem[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);
}

export function klvItemValueText(value: unknown, units: string | null = null): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    const text = value.toLocaleString('en-US', { maximumFractionDigits: 9 });
    return units === 'µs' && value >= TIMESTAMP_MICROS_FROM ? `${text} (${formatTimestampMicros(value)})` : text;
  }
  if (typeof value === 'string') return value;
  if (isNestedSet(value)) return value.items.map((item) => `${item.name}: ${klvItemValueText(item.value, item.units)}${item.units === null ? '' : ` ${item.units}`}`).join('; ');
  // An enumeration decodes as its code and name.
  if (typeof value === 'object' && 'name' in value && typeof value.name === 'string') return value.name;
  return JSON.stringify(value);
}
