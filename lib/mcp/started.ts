// The runs this process's MCP tools started. A closed connection does not stop them (the run registry
// owns them, not the call); the stdio server, whose process ends with its client, waits for them
// before it exits (scripts/mcp.ts), so that they end here rather than waiting for a takeover.
import type { RunKind } from "../db/runs";
import { runRegistry } from "../runs/engines";

const started = new Map<string, { kind: RunKind; subjectId: string }>();

export function noteStarted(kind: RunKind, subjectId: string): void {
  started.set(`${kind}:${subjectId}`, { kind, subjectId });
}

/**
 * Resolves once every run started here has ended in this process (at once for one that ended, or that
 * another process or a queue worker executes: that process owns it). The registry shares a start of a
 * run it is executing, so this waits on the execution itself.
 */
export async function settleStarted(): Promise<void> {
  const runs = [...started.values()];
  started.clear();
  await Promise.all(runs.map((r) => (runRegistry.queueMode ? undefined : runRegistry.start(r.kind, r.subjectId).catch(() => undefined))));
}
