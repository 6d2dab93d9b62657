/** @klvscope/plugins: the built-in checks and the CheckTester for writing more. */
export { CheckTester, runCheck, type CheckRun, type CheckTesterCases, type InvalidCase, type StreamInput, type ValidCase } from './check-tester.js';
