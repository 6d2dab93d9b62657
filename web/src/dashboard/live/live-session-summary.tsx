/** The live session's state in one line: source, status (from the latest reading when newer than REST's), since when, why it failed; and the channel's state. */
import { formatClockTime } from './clock-time.js';
import type { ChannelState } from './live-channel-connection.js';
import type { LiveSessionState, LiveSessionStatus } from './live-records.js';

export function LiveSessionSummary({ session, status, channel }: { session: LiveSessionState | null; status: LiveSessionStatus | null; channel: ChannelState }) {
  return (
    <p class="live-summary">
      <span class={`channel-state channel-${channel.state}`} data-field="channelState" data-state={channel.state} title={channel.problem ?? undefined}>
        channel {channel.state}
        {channel.problem !== null && `: ${channel.problem}`}
      </span>
      {session === null ? (
        <span class="no-session">No live session: start one from a source URL.</span>
      ) : (
        <>
          <span>
            session <code data-field="sessionId">{session.sessionId}</code>
          </span>
          <span>
            source <code data-field="source">{session.source}</code>
          </span>
          <span class={`session-status status-${status}`} data-field="status">
            {status}
          </span>
          <span>
            since <span data-clock>{formatClockTime(Date.parse(session.createdAt))}</span>
          </span>
          {session.error !== null && (
            <span class="error" role="alert">
              {session.error}
            </span>
          )}
        </>
      )}
    </p>
  );
}
