// Runs once when the server starts: guard request bodies (lib/api/body-guard.ts), refuse the methods Next
// cannot serve (lib/api/unsupported-methods.ts), report configuration problems, then resume interrupted runs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Guards on the HTTP server (lib/api/server-gate.ts), in order: a method no route serves is a 405
  // whatever its body, then a body over its limit is a 413.
  const { refuseUnsupportedMethods } = await import("./lib/api/unsupported-methods");
  refuseUnsupportedMethods();
  const { guardRequestBodies } = await import("./lib/api/body-guard");
  guardRequestBodies();
  const { dropBlankLlmVariables } = await import("./lib/env");
  dropBlankLlmVariables();
  const { startServer } = await import("./lib/server-start");
  await startServer();
}
