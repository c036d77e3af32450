// Runs once when the server starts: refuse the methods Next cannot serve (lib/api/unsupported-methods.ts),
// report configuration problems, then resume interrupted runs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { refuseUnsupportedMethods } = await import("./lib/api/unsupported-methods");
  refuseUnsupportedMethods();
  const { dropBlankLlmVariables } = await import("./lib/env");
  dropBlankLlmVariables();
  const { startServer } = await import("./lib/server-start");
  await startServer();
}
