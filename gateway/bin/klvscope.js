#!/usr/bin/env node
// The installed entry point runs the compiled CLI (npm run build makes dist/).
import '../dist/cli/main.js';
