/** The live session's state in one line: source, status (from the latest reading when newer than REST's), since when, why it failed; and the channel's state. */
import type { ComponentChildren } from 'preact';
import { formatClockTime } from './clock-time.js';
import type { ChannelState } from './live-channel-connection.js';
import type { LiveSessionState, LiveSessionStatus } from './live-records.js';

export function LiveSessionSummary({ session, status, channel }: { session: LiveSessionState | null; status: LiveSessionStatus | null; channel: ChannelState }) {
  return (
    <p class="live-summary">
      <ChannelStateBadge channel={channel} />
      {session === null ? (
        <span class="no-session">No live session: start one from a source URL.</span>
      ) : (
        <SessionFacts sessionId={session.sessionId} source={session.source} status={status ?? session.status} createdAt={session.createdAt}>
          {session.error !== null && (
            <span class="error" role="alert">
              {session.error}
            </span>
          )}
        </SessionFacts>
      )}
    </p>
  );
}

/** The live channel's state, with the reason when it is not open. */
export function ChannelStateBadge({ channel }: { channel: ChannelState }) {
  return (
    <span class={`channel-state channel-${channel.state}`} data-field="channelState" data-state={channel.state} title={channel.problem ?? undefined}>
      channel {channel.state}
      {channel.problem !== null && `: ${channel.problem}`}
    </span>
  );
}

/** A session's id, source, status and start, as the summary line shows them (a probe session's status may be 'unknown'); `children` follow. */
export function SessionFacts({ sessionId, source, status, createdAt, children }: { sessionId: string; source: string; status: string; createdAt: string; children?: ComponentChildren }) {
  return (
    <>
      <span>
        session <code data-field="sessionId">{sessionId}</code>
      </span>
      <span>
        source <code data-field="source">{source}</code>
      </span>
      <span class={`session-status status-${status}`} data-field="status">
        {status}
      </span>
      <span>
        since <span data-clock>{formatClockTime(Date.parse(createdAt))}</span>
      </span>
      {children}
    </>
  );
}
