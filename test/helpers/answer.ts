// Helpers for the answer agent's integration tests: ask, read the SSE stream, fetch the stored run.
import assert from "node:assert/strict";
import type { TestApp } from "./app-server";

export interface SseEvent {
  id: number | null;
  data: { type: string; [k: string]: unknown };
}

export async function ask(app: TestApp, body: Record<string, unknown>): Promise<{ requestId: string; streamUrl: string }> {
  const res = await app.postJson("/api/v1/query", body);
  assert.equal(res.status, 202, await res.clone().text());
  return (await res.json()) as { requestId: string; streamUrl: string };
}

/** Reads SSE frames until the stream ends (or `stopAfter` events, or `until` holds). */
export async function readSse(app: TestApp, url: string, { lastEventId, stopAfter = Infinity, until = () => false }: { lastEventId?: number; stopAfter?: number; until?: (events: SseEvent[]) => boolean } = {}): Promise<SseEvent[]> {
  const res = await app.fetch(url, { headers: lastEventId !== undefined ? { "last-event-id": String(lastEventId) } : {}, signal: AbortSignal.timeout(120_000) });
  // Not `await res.clone().text()` as the message: on a stream that has not ended it waits for the end.
  if (res.status !== 200) assert.fail(`${res.status}: ${await res.text()}`);
  assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  while (events.length < stopAfter && !until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const frames = buffer.split("\n\n");
    buffer = frames.pop() ?? "";
    for (const frame of frames) {
      const id = /^id: (\d+)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (data) events.push({ id: id ? Number(id) : null, data: JSON.parse(data) });
      // Frames that arrived in one chunk with the last one wanted are not taken: the caller resumes after it.
      if (events.length >= stopAfter) break;
    }
  }
  await reader.cancel().catch(() => undefined);
  return events;
}

export interface StoredAnswer {
  status: string;
  answer: string | null;
  references: { url: string; title: string; exactQuote: string }[];
  readURLs: string[];
  visitedURLs: string[];
  usage: { totalTokens: number; budget: number; byPurpose: Record<string, { promptTokens: number; completionTokens: number; calls: number }> };
  error: string | null;
  steps: { step: number; action: string; gap: string; think: string; payload: Record<string, unknown> }[];
}

export async function getAnswer(app: TestApp, requestId: string): Promise<StoredAnswer> {
  const res = await app.fetch(`/api/v1/answers/${encodeURIComponent(requestId)}`);
  assert.equal(res.status, 200);
  return (await res.json()) as StoredAnswer;
}

/** Asks, reads the stream to its end, and returns the events and the stored run. */
export async function askAndWait(app: TestApp, body: Record<string, unknown>) {
  const { requestId, streamUrl } = await ask(app, body);
  const events = await readSse(app, streamUrl);
  return { requestId, streamUrl, events, stored: await getAnswer(app, requestId) };
}
