/**
 * The recordings on disk, as the file-browse endpoints show them: the browse
 * roots, then the folders and files of the folder opened, with sizes; into a
 * folder and back up (never above its root: the service refuses), or to a
 * path typed in. A file typed in is checked (`POST /system/file-check`)
 * rather than listed, so its problem shows before it is inspected. A
 * folder's recordings can all be inspected at once, their verdicts listed
 * worst first (folder-verdicts.tsx).
 */
import { useState } from 'preact/hooks';
import { ApiError, type ApiClient } from '../api-client.js';
import { ErrorNotice } from '../error-notice.js';
import { useApiData } from '../use-api-data.js';
import { formatByteSize } from './byte-size.js';
import { BrowseRootsEditor } from './browse-roots-editor.js';
import { filesApi, type FileCheck, type FolderListing } from './files-api.js';
import { FolderVerdicts } from './folder-verdicts.js';
import { formatUtcTime } from './utc-time.js';

/** The folder last opened, kept for this tab so that coming back from a report shows it again. */
const FOLDER_STORAGE_NAME = 'klvscope.filesFolder';

function keptFolder(): string | null {
  try {
    return sessionStorage.getItem(FOLDER_STORAGE_NAME);
  } catch {
    return null;
  }
}

function keepFolder(path: string | null): void {
  try {
    if (path === null) sessionStorage.removeItem(FOLDER_STORAGE_NAME);
    else sessionStorage.setItem(FOLDER_STORAGE_NAME, path);
  } catch {
    // Storage refused: the folder is forgotten when the page changes.
  }
}

type Opened = { kind: 'none' } | { kind: 'folder'; path: string } | { kind: 'file'; check: FileCheck };

/** `onJobEnded`: a job of the folder's verdict list ended (its file is now in the archive). */
export function FolderBrowser({ api, onInspect, onJobEnded }: { api: ApiClient; onInspect: (filePath: string) => void; onJobEnded?: () => void }) {
  const roots = useApiData(() => filesApi.roots(api), [api]);
  const [opened, setOpened] = useState<Opened>(() => {
    const folder = keptFolder();
    return folder === null ? { kind: 'none' } : { kind: 'folder', path: folder };
  });
  const folderPath = opened.kind === 'folder' ? opened.path : null;
  const listing = useApiData<FolderListing | null>(() => (folderPath === null ? Promise.resolve(null) : filesApi.folder(api, folderPath)), [api, folderPath]);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<Error | null>(null);

  const openFolder = (path: string | null) => {
    keepFolder(path);
    setTypedError(null);
    setOpened(path === null ? { kind: 'none' } : { kind: 'folder', path });
  };

  // A typed path: a folder is listed; a file is checked; anything else is said at the field.
  const goToTyped = async () => {
    const path = typed.trim();
    if (path === '') return;
    setTypedError(null);
    try {
      const folder = await filesApi.folder(api, path);
      openFolder(folder.path);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_NOT_A_FOLDER') {
        try {
          setOpened({ kind: 'file', check: await filesApi.checkFile(api, path) });
        } catch (checkError) {
          setTypedError(checkError as Error);
        }
      } else setTypedError(error as Error);
    }
  };

  return (
    <section class="panel folder-browser">
      <h2>Recordings</h2>
      {roots.state === 'loading' && <p class="loading">Loading the browse roots…</p>}
      {roots.state === 'failed' && <ErrorNotice error={roots.error} what="list the browse roots" />}
      {roots.state === 'loaded' && <BrowseRootsEditor api={api} roots={roots.data} onOpen={openFolder} onChanged={() => roots.reload()} />}
      <form
        class="path-form"
        onSubmit={(event) => {
          event.preventDefault();
          void goToTyped();
        }}
      >
        <label>
          Path
          <input type="text" name="path" placeholder="/a/folder/or/recording.ts inside a root" value={typed} onInput={(event) => setTyped((event.target as HTMLInputElement).value)} aria-invalid={typedError !== null} />
        </label>
        <button type="submit">Go</button>
        {typedError !== null && <ErrorNotice error={typedError} what="open that path" />}
      </form>
      {opened.kind === 'file' && <TypedFile check={opened.check} onInspect={onInspect} />}
      {opened.kind === 'folder' && listing.state === 'loading' && <p class="loading">Listing {opened.path}…</p>}
      {opened.kind === 'folder' && listing.state === 'failed' && <ErrorNotice error={listing.error} what={`list ${opened.path}`} />}
      {listing.state === 'loaded' && listing.data !== null && opened.kind === 'folder' && <FolderTable api={api} listing={listing.data} onOpen={openFolder} onInspect={onInspect} onJobEnded={onJobEnded} />}
    </section>
  );
}

function FolderTable({
  api,
  listing,
  onOpen,
  onInspect,
  onJobEnded,
}: {
  api: ApiClient;
  listing: FolderListing;
  onOpen: (path: string | null) => void;
  onInspect: (filePath: string) => void;
  onJobEnded?: () => void;
}) {
  const recordings = listing.entries.filter((entry) => entry.kind === 'file' && entry.isTransportStream);
  return (
    <div class="folder" data-path={listing.path}>
      <p class="folder-path">
        <button type="button" class="up" disabled={listing.parent === null} onClick={() => onOpen(listing.parent)} title={listing.parent === null ? 'this is a browse root' : `up to ${listing.parent}`}>
          ↑ Up
        </button>
        <code>{listing.path}</code>
        {listing.truncated && <span class="error"> (more than 10 000 entries: the first ones only)</span>}
      </p>
      {recordings.length > 0 && <FolderVerdicts api={api} folder={listing.path} files={recordings} onJobEnded={onJobEnded} />}
      <table class="data entries">
        <thead>
          <tr>
            <th>Name</th>
            <th class="number">Size</th>
            <th>Modified</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {listing.entries.length === 0 && (
            <tr>
              <td colSpan={4} class="empty">
                This folder is empty.
              </td>
            </tr>
          )}
          {listing.entries.map((entry) => (
            <tr class={`entry entry-${entry.kind}`} data-path={entry.path} data-kind={entry.kind}>
              <td>
                {entry.kind === 'folder' ? (
                  <a
                    href="#/files"
                    class="open-folder"
                    onClick={(event) => {
                      event.preventDefault();
                      onOpen(entry.path);
                    }}
                  >
                    {entry.name}/
                  </a>
                ) : (
                  <span class={entry.isTransportStream ? 'transport-stream' : 'other-file'}>{entry.name}</span>
                )}
              </td>
              <td class="number" data-size={entry.size ?? ''}>
                {entry.kind === 'file' ? formatByteSize(entry.size) : ''}
              </td>
              <td>{formatUtcTime(entry.modifiedAt)}</td>
              <td>
                {entry.kind === 'file' && entry.isTransportStream && (
                  <button type="button" class="inspect" onClick={() => onInspect(entry.path)}>
                    Inspect
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TypedFile({ check, onInspect }: { check: FileCheck; onInspect: (filePath: string) => void }) {
  return (
    <div class="typed-file" data-path={check.path}>
      <code>{check.path}</code> {formatByteSize(check.size)}{' '}
      {check.problem === null ? (
        <button type="button" class="inspect" onClick={() => onInspect(check.path)}>
          Inspect
        </button>
      ) : (
        <p class="error" role="alert">
          Cannot be inspected: {check.problem.message} <code class="error-code">({check.problem.code})</code>
        </p>
      )}
    </div>
  );
}
