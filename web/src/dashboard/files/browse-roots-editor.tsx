/**
 * The browse roots, each opening its folder, with **Remove**, and a field to
 * add one: the whole list is read from `GET /config` and sent back changed
 * with `PATCH /config` (a JSON Merge Patch replaces a list whole, so the page
 * sends every root it keeps). The service judges a path it is given (not
 * absolute, …) and its refusal is shown at the field.
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.js';
import { ErrorNotice } from '../error-notice.js';
import type { BrowseRoot } from './files-api.js';

export interface BrowseRootsEditorProps {
  api: ApiClient;
  roots: readonly BrowseRoot[];
  onOpen: (path: string) => void;
  /** The list changed: read the roots again. */
  onChanged: () => void;
}

async function changeRoots(api: ApiClient, change: (roots: string[]) => string[]): Promise<void> {
  const config = await api.get<{ browseRoots: string[] }>('/config');
  await api.request('PATCH', '/config', { body: { browseRoots: change(config.browseRoots) } });
}

export function BrowseRootsEditor({ api, roots, onOpen, onChanged }: BrowseRootsEditorProps) {
  const [added, setAdded] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const run = async (change: (roots: string[]) => string[]) => {
    setError(null);
    try {
      await changeRoots(api, change);
      setAdded('');
      onChanged();
    } catch (refused) {
      setError(refused as Error);
    }
  };
  return (
    <div class="browse-roots">
      <span>Browse roots:</span>
      {roots.map((root) => (
        <span class="browse-root-item" data-path={root.path}>
          <button type="button" class="browse-root" data-path={root.path} disabled={!root.exists} title={root.exists ? 'open this root' : 'not a folder now (not mounted?)'} onClick={() => onOpen(root.path)}>
            {root.path}
          </button>
          <button type="button" class="remove-root" title={`stop browsing ${root.path}`} onClick={() => void run((paths) => paths.filter((path) => path !== root.path))}>
            Remove
          </button>
        </span>
      ))}
      {roots.length === 0 && <span>none configured</span>}
      <form
        class="add-root"
        onSubmit={(event) => {
          event.preventDefault();
          const path = added.trim();
          if (path !== '') void run((paths) => (paths.includes(path) ? paths : [...paths, path]));
        }}
      >
        <input type="text" name="root" placeholder="/an/absolute/folder" value={added} onInput={(event) => setAdded(event.currentTarget.value)} aria-invalid={error !== null} />
        <button type="submit">Add root</button>
      </form>
      {error !== null && <ErrorNotice error={error} what="change the browse roots" />}
    </div>
  );
}
