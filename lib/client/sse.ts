// Reads a server-sent event stream whose events are JSON (`data: {…}`), as the AI SDK's UI message
// streams are. `[DONE]` and anything that is not JSON is skipped.
export async function* readSseJson(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    while (!signal?.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = eventEnd(buffer)) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^(\r?\n){2}/, "");
        const parsed = parseEvent(event);
        if (parsed !== undefined) yield parsed;
      }
    }
    const last = parseEvent(buffer);
    if (last !== undefined && !signal?.aborted) yield last;
  } finally {
    reader.releaseLock();
  }
}

/** Where the first complete event ends (before its blank line), or -1. */
function eventEnd(buffer: string): number {
  const lf = buffer.indexOf("\n\n");
  const crlf = buffer.indexOf("\r\n\r\n");
  if (lf === -1) return crlf;
  if (crlf === -1) return lf;
  return Math.min(lf, crlf);
}

function parseEvent(event: string): unknown {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
    .join("\n");
  if (!data || data === "[DONE]") return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
