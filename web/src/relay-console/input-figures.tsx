/** A running channel's input at a glance: when its last datagram came, for how long it has run, who sends, and what was lost on the way. */
import { formatQuantity } from '../shared/quantity-format.js';
import type { InputFigures } from './relay-api.js';

/** `2 min 13 s`, `1 h 4 min`, `12 s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

export interface InputFiguresProps {
  input: InputFigures;
  /** The relay's clock at the feed's last message: uptime is measured on it, not on this machine's. */
  relayNowMs: number;
}

export function InputFiguresLine({ input, relayNowMs }: InputFiguresProps) {
  const losses = [input.rtp ? `RTP lost ${formatQuantity(input.rtpLost)}` : null, `kernel drops ${formatQuantity(input.kernelDrops)}`, input.applicationLoss > 0 ? `queue drops ${formatQuantity(input.applicationLoss)}` : null].filter((l) => l !== null);
  const lossy = input.rtpLost + input.kernelDrops + input.applicationLoss > 0;
  return (
    <div class="input-figures">
      <div data-field="last-datagram" data-silent-ms={input.silentMs}>
        last datagram {formatDuration(input.silentMs)} ago
      </div>
      <div data-field="uptime">up {formatDuration(relayNowMs - Date.parse(input.since))}</div>
      {input.sender !== null && (
        <div data-field="sender" class="nowrap">
          from {input.sender}
        </div>
      )}
      <div data-field="losses" class={lossy ? 'finding-error' : 'muted'}>
        {formatQuantity(input.datagrams)} datagrams, {losses.join(', ')}
      </div>
    </div>
  );
}
