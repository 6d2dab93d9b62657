/**
 * One KLV packet opened: its decoded items (tag, name, value, units) beside
 * its bytes in hex, 16 to a line with their offsets. Pointing at an item,
 * in the table or in the hex, lights that item's bytes (tag, length and
 * value) and its row; the key and the length are marked as such.
 */
import { metadataItemsOfTriplet, hexToBytes } from '@klvscope/core/browser';
import { useMemo, useState } from 'preact/hooks';
import { pidLabel } from '../report/pid-label.js';
import { klvItemValueText } from './klv-item-value.js';
import { klvPacketLayout, type ByteSpan } from './klv-packet-layout.js';
import type { KlvPacketRow } from './klv-packets-api.js';

const BYTES_PER_LINE = 16;

function within(span: ByteSpan | null | undefined, index: number): boolean {
  return span !== null && span !== undefined && index >= span.start && index < span.end;
}

export function KlvPacketDetail({ packet }: { packet: KlvPacketRow }) {
  const bytes = useMemo(() => hexToBytes(packet.rawHex) ?? new Uint8Array(0), [packet.rawHex]);
  const items = useMemo(() => (packet.keyName === null ? null : metadataItemsOfTriplet(bytes, packet.keyName)), [bytes, packet.keyName]);
  const layout = useMemo(() => klvPacketLayout(bytes, packet.keyName, items ?? []), [bytes, packet.keyName, items]);
  const [lit, setLit] = useState<number | null>(null);
  const litSpan = lit === null ? null : layout?.items[lit];
  const itemAt = (index: number) => layout?.items.findIndex((span) => within(span, index)) ?? -1;

  const lines: number[] = [];
  for (let start = 0; start < bytes.length; start += BYTES_PER_LINE) lines.push(start);
  return (
    <section class="panel klv-packet-detail" data-klv-index={packet.klvIndex} data-pid={packet.pid}>
      <h2>
        KLV packet {packet.klvIndex} of PID {pidLabel(packet.pid)}: {packet.keyName ?? 'unknown key'}, {bytes.length} bytes
      </h2>
      <div class="klv-packet-columns">
        <div class="klv-items">
          {items === null ? (
            <p class="empty">Not decoded: klvscope decodes ST 0601, ST 0903 and EG 0104 packets; key <code>{packet.keyHex}</code>.</p>
          ) : (
            <table class="data klv-items-table">
              <thead>
                <tr>
                  <th class="number">Tag</th>
                  <th>Item</th>
                  <th>Value</th>
                  <th>Units</th>
                  <th class="number">Bytes</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item, index) => (
                  <tr
                    class={`klv-item ${lit === index ? 'lit' : ''} ${item.error === undefined ? '' : 'error'}`}
                    data-tag={item.tag}
                    data-index={index}
                    onMouseEnter={() => setLit(index)}
                    onMouseLeave={() => setLit(null)}
                  >
                    <td class="number">{item.tag}</td>
                    <td>{item.name}</td>
                    <td class="value" title={item.error}>
                      {item.error === undefined ? klvItemValueText(item.value, item.units) : `undecodable: ${item.error}`}
                    </td>
                    <td>{item.units ?? ''}</td>
                    <td class="number">{item.rawHex.length / 2}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <pre class="hex-dump" aria-label="packet bytes in hexadecimal">
          {lines.map((start) => (
            <div class="hex-line">
              <span class="hex-offset">{start.toString(16).padStart(4, '0')}</span>
              {Array.from(bytes.subarray(start, start + BYTES_PER_LINE), (byte, column) => {
                const index = start + column;
                const role = within(layout?.key, index) ? 'key' : within(layout?.length, index) ? 'length' : '';
                return (
                  <span
                    class={`hex-byte ${role} ${within(litSpan, index) ? 'lit' : ''}`}
                    data-offset={index}
                    onMouseEnter={() => {
                      const item = itemAt(index);
                      setLit(item < 0 ? null : item);
                    }}
                  >
                    {byte.toString(16).padStart(2, '0')}
                  </span>
                );
              })}
            </div>
          ))}
        </pre>
      </div>
      <p class="hex-legend">
        <span class="hex-byte key">key</span> <span class="hex-byte length">length</span> <span class="hex-byte lit">the item pointed at</span>
      </p>
    </section>
  );
}
