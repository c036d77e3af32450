// Runs once when the server starts: guard request bodies (lib/api/body-guard.ts), refuse the methods Next
// cannot serve (lib/api/unsupported-methods.ts), report configuration problems, then resume interrupted runs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Bodies first: the method check wraps it, so a method no route serves is a 405 whatever its body.
  const { guardRequestBodies } = await import("./lib/api/body-guard");
  guardRequestBodies();
  const { refuseUnsupportedMethods } = await import("./lib/api/unsupported-methods");
  refuseUnsupportedMethods();
  const { dropBlankLlmVariables } = await import("./lib/env");
  dropBlankLlmVariables();
  const { startServer } = await import("./lib/server-start");
  await startServer();
}
