/**
 * Where the live page starts and stops a session: the source URL as
 * POST /sessions/live takes it (docs/live.md "Sources"), and the service's
 * refusal shown under the field (a URL that is not one, a port in use).
 * On a hub the session may run on one of its online probes instead
 * (POST /sessions/live with `probe`, docs/fleet.md "Probes").
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api-client.js';

export interface LiveSourceFormProps {
  running: boolean;
  busy: boolean;
  problem: Error | null;
  /** A hub's online probes, where a session may run instead of on this service; empty elsewhere. */
  probes?: readonly string[];
  /** `probe` null: on this service. */
  onStart: (source: string, probe: string | null) => void;
  onStop: () => void;
}

export function LiveSourceForm({ running, busy, problem, probes = [], onStart, onStop }: LiveSourceFormProps) {
  const [source, setSource] = useState('udp://127.0.0.1:5000');
  const [where, setWhere] = useState('');
  // A probe that went offline is no choice any more: back to this service.
  const probe = where !== '' && probes.includes(where) ? where : null;
  return (
    <form
      class="panel live-source-form"
      onSubmit={(event) => {
        event.preventDefault();
        onStart(source.trim(), probe);
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
      {probes.length > 0 && (
        <label>
          on{' '}
          <select name="probe" value={probe ?? ''} onChange={(event) => setWhere(event.currentTarget.value)}>
            <option value="">this service</option>
            {probes.map((name) => (
              <option key={name} value={name}>
                probe {name}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" class="start" disabled={busy}>
        {running && probe === null ? 'Start a new session' : 'Start'}
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
