/** A channel's input per PID over the last second: its rate, packets and continuity errors since the start, a PID over or under its limit marked. */
import { formatBitrate } from '../shared/bitrate-format.js';
import { formatQuantity } from '../shared/quantity-format.js';
import type { ActiveAlarm, StreamBitrates } from './relay-api.js';

export const hexPid = (pid: number): string => `0x${pid.toString(16).toUpperCase().padStart(4, '0')}`;

export function PidRates({ pids, alarms, full = false }: { pids: StreamBitrates['pids']; alarms: readonly ActiveAlarm[]; full?: boolean }) {
  if (pids.length === 0) return <span class="muted">no PID this second</span>;
  const alarmed = new Set(alarms.filter((a) => a.pid !== null).map((a) => a.pid));
  return (
    <table class="pid-rates" data-field="pid-rates">
      {full && (
        <thead>
          <tr>
            <th>PID</th>
            <th>bitrate</th>
            <th>packets</th>
            <th>CC errors</th>
          </tr>
        </thead>
      )}
      <tbody>
        {pids.map((p) => (
          <tr key={p.pid} data-pid={p.pid} class={alarmed.has(p.pid) ? 'in-alarm' : undefined}>
            <td>{hexPid(p.pid)}</td>
            <td data-field="pid-bitrate" data-bps={p.bitrate}>
              {formatBitrate(p.bitrate)}
            </td>
            {full && <td>{formatQuantity(p.packets)}</td>}
            <td class={p.continuityErrors > 0 ? 'finding-error' : 'muted'} title="continuity errors since the start">
              {full ? formatQuantity(p.continuityErrors) : p.continuityErrors > 0 ? `${formatQuantity(p.continuityErrors)} CC` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
