// The console's moderation section in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators).
export default function register(test, ctx) {
  void test
  void ctx
}
