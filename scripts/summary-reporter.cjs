// The spec reporter, plus the closing line CI reads: "tests: N passed, N failed, N skipped".
const Mocha = require('mocha');
const { EVENT_RUN_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    runner.on(EVENT_TEST_PASS, () => { passed += 1; });
    runner.on(EVENT_TEST_FAIL, () => { failed += 1; });
    runner.on(EVENT_TEST_PENDING, () => { skipped += 1; });
    runner.once(EVENT_RUN_END, () => {
      // After the spec reporter's own epilogue.
      setImmediate(() => console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`));
    });
  }
}
module.exports = SummaryReporter;
