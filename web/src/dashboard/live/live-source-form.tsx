/**
 * Where the live page starts and stops a session: the source URL as
 * POST /sessions/live takes it (docs/live.md "Sources"), and the service's
 * refusal shown under the field (a URL that is not one, a port in use).
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api-client.js';

export interface LiveSourceFormProps {
  running: boolean;
  busy: boolean;
  problem: Error | null;
  onStart: (source: string) => void;
  onStop: () => void;
}

export function LiveSourceForm({ running, busy, problem, onStart, onStop }: LiveSourceFormProps) {
  const [source, setSource] = useState('udp://127.0.0.1:5000');
  return (
    <form
      class="panel live-source-form"
      onSubmit={(event) => {
        event.preventDefault();
        onStart(source.trim());
      }}
    >
      <label for="live-source">Source URL</label>
      <input
        id="live-source"
        name="source"
        type="text"
        spellcheck={false}
        value={source}
        aria-invalid={problem !== null}
        aria-describedby={problem === null ? undefined : 'live-source-problem'}
        onInput={(event) => setSource(event.currentTarget.value)}
      />
      <button type="submit" class="start" disabled={busy}>
        {running ? 'Start a new session' : 'Start'}
      </button>
      <button type="button" class="stop" disabled={busy || !running} onClick={onStop}>
        Stop
      </button>
      <p class="hint">udp://127.0.0.1:PORT, udp://239.1.1.1:PORT (a group), udp://SOURCE@GROUP:PORT, serial:///dev/ttyUSB0?baud=115200</p>
      {problem !== null && (
        <p id="live-source-problem" class="error field-error" role="alert">
          {problem.message}
          {problem instanceof ApiError && <code class="error-code"> ({problem.code})</code>}
        </p>
      )}
    </form>
  );
}
