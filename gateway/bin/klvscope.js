#!/usr/bin/env -S node --v8-pool-size=0 --wasm-tiering-budget=200000000
// The installed entry point runs the bundled CLI (`npm run build` makes it).
// --v8-pool-size=0 sizes V8's background threads (JIT compiles, GC helpers) by
// the machine's parallelism instead of Node's fixed 4: on a 2-core machine,
// 4 of them compete with the main thread, and an inspection runs ~15 % slower.
// --wasm-tiering-budget (100x V8's default) keeps sql.js's WebAssembly on the
// baseline compiler until it has run for a while: otherwise the first few
// catalog queries send its largest functions to the optimizing compiler,
// whose ~100 ms of work on a 2-core machine delays a cached inspection that
// needs 200 ms in all; long ingests still get optimized code.
import '../dist/klvscope.mjs';
