/** The relay console's entry: the page into #relay-console, its probe on window for the tests. */
import '../shared/page-theme.css';
import './relay-console.css';
import { render } from 'preact';
// The dashboard's convention, shared: #key= taken off the address bar, the key kept in sessionStorage.
import { storedKey, takeKeyFromFragment } from '../shared/api-key-session.js';
import { RelayConsolePage } from './relay-console-page.js';
import { emptyProbe, type RelayConsoleProbe } from './relay-console-probe.js';

declare global {
  interface Window {
    klvscopeRelayConsole: RelayConsoleProbe;
  }
}

// Before the first render: the key leaves the address bar at once.
const initialKey = takeKeyFromFragment(location, history) ?? storedKey();
const probe = emptyProbe();
window.klvscopeRelayConsole = probe;
render(<RelayConsolePage initialKey={initialKey} probe={probe} />, document.getElementById('relay-console') as HTMLElement);
