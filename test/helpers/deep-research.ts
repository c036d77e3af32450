// Driving the Deep Research API in integration tests: start, poll the status, read a conversation.
import assert from "node:assert/strict";
import { waitFor, type TestApp } from "./app-server";
import { readUiStream, type UiPart } from "./ui-stream";

export interface StartReply {
  messageId: string;
  conversationId: string;
  userId: string;
  status: string;
  pollUrl: string;
  deduplicated?: boolean;
}

export async function startDr(app: TestApp, body: Record<string, unknown>): Promise<StartReply> {
  const res = await app.postJson("/api/deep-research/start", body);
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json as StartReply;
}

export interface StatusReply {
  status: "queued" | "processing" | "completed" | "failed";
  result?: { text: string; suggestedNextSteps: unknown[] };
  error?: string;
  progress?: { iteration: number; level: number; phase: string; label: string; phaseStartedAt: string; objective: string };
}

/**
 * Polls the status URL until the start has ended; returns every status seen, in order. A start may
 * read as "queued" for a moment before its run is claimed (and in queue mode until a worker takes it).
 */
export async function pollUntilDone(app: TestApp, pollUrl: string, timeoutMs = 180_000): Promise<StatusReply[]> {
  const seen: StatusReply[] = [];
  await waitFor(async () => {
    const res = await app.fetch(pollUrl);
    assert.equal(res.status, 200);
    const s = (await res.json()) as StatusReply;
    seen.push(s);
    return s.status === "queued" || s.status === "processing" ? undefined : s;
  }, timeoutMs, `the end of ${pollUrl}`);
  return seen;
}

export async function conversation(app: TestApp, id: string) {
  const res = await app.fetch(`/api/deep-research/conversations/${id}`);
  assert.equal(res.status, 200);
  return (await res.json()) as {
    state: { currentLevel: number; keyInsights: string[]; objective: string; conversationTitle: string | null; suggestedNextSteps: unknown[] };
    messages: { id: string; role: string; content: string; iteration: number; status: string; replyToId: string | null }[];
    plan: { id: string; level: number; type: string; status: string; output: string | null; childResearchId: string | null; error: string | null }[];
    discoveries: { id: string; status: string; evidenceItems: { taskId: string; itemId: string; quote: string | null; url: string | null; researchId: string | null }[] }[];
    deepResearchRun: { isRunning: boolean; lastResult: string | null; rootMessageId: string; phase: string | null; phaseStartedAt: string | null };
    draft: { replyToId: string; text: string } | null;
  };
}

export type StreamPart = UiPart;

/** Reads a conversation's UI message stream (SSE) to its end, or until `stopAfter` parts. */
export function readConversationStream(app: TestApp, id: string, stopAfter = Infinity): Promise<StreamPart[]> {
  return readUiStream(app, `/api/deep-research/conversations/${id}/stream`, { enough: (parts) => parts.length >= stopAfter, timeoutMs: 180_000 });
}
