// Reads an AI SDK UI message stream (SSE) as a client would: any run's (a research's, a
// conversation's, GET /api/runs/:id/stream), part by part.
import assert from "node:assert/strict";
import type { TestApp } from "./app-server";

export interface UiPart {
  type: string;
  id?: string;
  data?: { seq?: number; at?: number; status?: string; [k: string]: unknown };
}

/** The parts of the stream at `path`, until `enough(parts)` holds or the stream ends. */
export async function readUiStream(app: TestApp, path: string, { enough = () => false, timeoutMs = 90_000 }: { enough?: (parts: UiPart[]) => boolean; timeoutMs?: number } = {}): Promise<UiPart[]> {
  const res = await app.fetch(path, { signal: AbortSignal.timeout(timeoutMs) });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-vercel-ai-ui-message-stream"), "v1");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parts: UiPart[] = [];
  let buffer = "";
  while (!enough(parts)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("data: ") && line !== "data: [DONE]") parts.push(JSON.parse(line.slice(6)) as UiPart);
  }
  await reader.cancel().catch(() => undefined);
  return parts;
}
