/** The dashboard app's entry: the app into #dashboard. */
import './dashboard.css';
import { render } from 'preact';
import { DashboardApp } from './dashboard-app.js';

render(<DashboardApp />, document.getElementById('dashboard') as HTMLElement);
