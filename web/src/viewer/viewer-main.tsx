import { render } from 'preact';

render(<h1>klvscope viewer</h1>, document.getElementById('viewer')!);
