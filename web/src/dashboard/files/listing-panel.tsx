/**
 * A panel listing what one endpoint returns (recent sources, archive
 * entries): loading, its error, the error of the last action on an item,
 * a sentence when the list is empty, else the table the caller draws.
 */
import type { ComponentChildren } from 'preact';
import { ErrorNotice } from '../error-notice.js';
import type { ApiData } from '../use-api-data.js';

export interface ListingPanelProps<T> {
  /** The panel's CSS class, for the tests and the style. */
  name: string;
  title: string;
  list: ApiData<T[]>;
  /** What the list is, for its error ("list the archive"). */
  listing: string;
  action: { error: Error | null; what: string };
  empty: string;
  children: (items: T[]) => ComponentChildren;
}

export function ListingPanel<T>({ name, title, list, listing, action, empty, children }: ListingPanelProps<T>) {
  return (
    <section class={`panel ${name}`}>
      <h2>{title}</h2>
      {list.state === 'loading' && <p class="loading">loading…</p>}
      {list.state === 'failed' && <ErrorNotice error={list.error} what={listing} />}
      {action.error !== null && <ErrorNotice error={action.error} what={action.what} />}
      {list.state === 'loaded' && list.data.length === 0 && <p class="empty">{empty}</p>}
      {list.state === 'loaded' && list.data.length > 0 && children(list.data)}
    </section>
  );
}
