/** The dashboard app's entry: the app into #dashboard. */
import '../shared/page-theme.css';
import './dashboard.css';
import { render } from 'preact';
import { DashboardApp } from './dashboard-app.js';

render(<DashboardApp />, document.getElementById('dashboard') as HTMLElement);
