#!/usr/bin/env node
// The installed entry point runs the bundled CLI (`npm run build` makes it).
import '../dist/klvscope.mjs';
