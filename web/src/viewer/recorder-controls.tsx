/**
 * Start and stop the recorder: POST /command with Basic authentication. The
 * user and password are asked for in a small form and kept only in this
 * page's memory for the next command.
 */
import type { RecorderStatus } from '@klvscope/core/browser';
import { useState } from 'preact/hooks';
import { sendCommand, ViewerApiError, type CommandName, type Credentials } from './viewer-api.js';

export interface RecorderControlsProps {
  enabled: boolean;
  /** The module answered a command: the recorder's new state. */
  onRecorderState: (state: RecorderStatus) => void;
}

export function RecorderControls({ enabled, onRecorderState }: RecorderControlsProps) {
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [asking, setAsking] = useState<CommandName | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (command: CommandName, withCredentials: Credentials) => {
    setBusy(true);
    try {
      const answer = await sendCommand('recorder', command, withCredentials);
      setCredentials(withCredentials);
      setAsking(null);
      if (isRecorderStatus(answer)) onRecorderState(answer);
      setResult({ ok: true, text: `recorder ${command}: ${isRecorderStatus(answer) ? answer.state : 'done'}` });
    } catch (error) {
      const unauthorized = error instanceof ViewerApiError && error.status === 401;
      if (unauthorized) {
        setCredentials(null);
        setAsking(command);
      }
      setResult({ ok: false, text: `recorder ${command} refused: ${error instanceof Error ? error.message : String(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const press = (command: CommandName) => {
    if (credentials === null) setAsking(command);
    else void run(command, credentials);
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    if (asking !== null) void run(asking, { user: textField(form, 'user'), password: textField(form, 'password') });
  };

  return (
    <section class="recorder-controls">
      <button type="button" disabled={!enabled || busy} onClick={() => press('start')}>
        Start recording
      </button>
      <button type="button" disabled={!enabled || busy} onClick={() => press('stop')}>
        Stop recording
      </button>
      {!enabled && <span class="hint">recorder disabled in the configuration</span>}
      {asking !== null && (
        <form class="credentials" onSubmit={submit}>
          <input name="user" placeholder="user" autocomplete="username" required />
          <input name="password" type="password" placeholder="password" autocomplete="current-password" />
          <button type="submit" disabled={busy}>
            {asking === 'start' ? 'Start' : 'Stop'}
          </button>
          <button type="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </form>
      )}
      {result !== null && <p class={result.ok ? 'command-ok' : 'command-error'}>{result.text}</p>}
    </section>
  );
}

function isRecorderStatus(value: unknown): value is RecorderStatus {
  return typeof value === 'object' && value !== null && typeof (value as { state?: unknown }).state === 'string';
}

function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
