// POST /v1/chat/completions as the answer agent: start a run for the chat's last question, then
// stream its steps as reasoning_content and its answer as content (ending `data: [DONE]`), or wait
// and reply with one chat.completion. A client that goes away cancels its run.
import { AppError } from "../errors";
import { runRegistry } from "../runs/engines";
import type { FinalAnswer } from "./events";
import { annotationsOf, chunk, sourcesOf, completionBody, reasoningOf, toAnswerInput, usageOf, type ChatRequest } from "./openai";
import { startAnswer } from "./service";
import { followAnswer, type NumberedEvent } from "./stream";

export async function chatCompletion({ body, userId, signal }: { body: ChatRequest; userId: string | null; signal: AbortSignal }): Promise<Response> {
  const input = toAnswerInput(body);
  const { requestId, runId } = await startAnswer({ userId, ...input });
  const id = `chatcmpl-${requestId}`;
  const created = Math.floor(Date.now() / 1000);
  const { events } = await followAnswer({ requestId, userId, signal });
  let ended = false;
  const cancelIfOpen = () => {
    if (!ended) void runRegistry.cancel("answer", runId).catch(() => {});
  };
  signal.addEventListener("abort", cancelIfOpen, { once: true });
  if (!body.stream) {
    let reasoning = "";
    for await (const { event } of events) {
      if (event.type === "progress") reasoning += reasoningOf(event.data.trackers);
      else if (event.type === "paused") continue;
      else {
        ended = true;
        if (event.type === "error") throw new AppError("unavailable:answer", event.data.message);
        return Response.json(completionBody({ id, created, final: event.data, reasoning }), { headers: { "x-request-id": requestId } });
      }
    }
    throw new AppError("unavailable:answer", "The answer run ended without an answer");
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // the client went away: the stream is closed
        }
      };
      send(chunk(id, created, { role: "assistant", content: "" }));
      // A step can take minutes: an SSE comment keeps proxies from closing a quiet stream (clients skip it).
      const ping = setInterval(() => send(": keep-alive\n\n"), 15_000);
      try {
        for await (const e of events) sendEvent(e, send);
      } catch (error) {
        if (!signal.aborted) send(`data: ${JSON.stringify({ error: { message: error instanceof Error ? error.message : "The stream failed", type: "server_error", param: null, code: null } })}\n\n`);
      } finally {
        clearInterval(ping);
      }
      ended = true;
      send("data: [DONE]\n\n");
      try {
        controller.close();
      } catch {
        // the client went away first
      }
    },
    cancel() {
      cancelIfOpen();
      void events.return(undefined);
    },
  });

  function sendEvent({ event }: NumberedEvent, send: (text: string) => void) {
    if (event.type === "progress") return send(chunk(id, created, { reasoning_content: reasoningOf(event.data.trackers) }));
    // OpenAI's chunks have no place for it; the wait shows as a longer pause between chunks.
    if (event.type === "paused") return;
    ended = true;
    if (event.type === "error") {
      return send(`data: ${JSON.stringify({ error: { message: event.data.message, type: "server_error", param: null, code: "answer_failed" } })}\n\n`);
    }
    const final: FinalAnswer = event.data;
    send(chunk(id, created, { content: final.answer }));
    send(chunk(id, created, { annotations: annotationsOf(final) }, "stop", { usage: usageOf(final), ...sourcesOf(final) }));
  }

  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-request-id": requestId },
  });
}
