// Runs once when the server starts: report configuration problems, then resume interrupted runs.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { dropBlankLlmVariables } = await import("./lib/env");
  dropBlankLlmVariables();
  const { startServer } = await import("./lib/server-start");
  await startServer();
}
