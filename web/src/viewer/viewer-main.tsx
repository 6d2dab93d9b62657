/** The viewer app's entry: the page into #viewer, its probe on window for the tests. */
import 'leaflet/dist/leaflet.css';
import '../shared/page-theme.css';
import './viewer.css';
import { render } from 'preact';
import { ViewerPage } from './viewer-page.js';
import { emptyProbe, type ViewerProbe } from './viewer-probe.js';

declare global {
  interface Window {
    klvscopeViewer: ViewerProbe;
  }
}

const probe = emptyProbe();
window.klvscopeViewer = probe;
render(<ViewerPage probe={probe} />, document.getElementById('viewer') as HTMLElement);
