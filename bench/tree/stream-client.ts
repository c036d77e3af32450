// A stream client for GET /api/research/:id/stream that records, for every live part, the time from
// the runner emitting the event (its `at`, epoch ms from the server's clock) to its arrival here.
// Both processes run on this machine and read the same clock.

export interface StreamStats {
  parts: number;
  latenciesMs: number[];
  /** Live parts by type. */
  byType: Record<string, number>;
  finished: boolean;
  /** Arrival time (epoch ms) of the terminal run status. */
  endedAt?: number;
  terminalStatus?: string;
}

const now = () => performance.timeOrigin + performance.now();

/** Each `data:` part of a UI message stream with its arrival time (epoch ms), until the stream ends. */
export async function* streamParts<Part = { type: string; data?: { at?: number; status?: string } }>(url: string, headers: Record<string, string>, signal?: AbortSignal): AsyncGenerator<{ part: Part; arrived: number }> {
  const res = await fetch(url, { headers, signal });
  if (!res.ok || !res.body) throw new Error(`stream: HTTP ${res.status} ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const arrived = now();
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith("data:")) continue;
      const payload = line.slice(5).trim();
      if (payload === "[DONE]") continue;
      yield { part: JSON.parse(payload) as Part, arrived };
    }
  }
}

export async function followStream(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<StreamStats> {
  const stats: StreamStats = { parts: 0, latenciesMs: [], byType: {}, finished: false };
  for await (const { part, arrived } of streamParts(url, headers, signal)) {
    if (part.type === "finish") stats.finished = true;
    if (typeof part.data?.at !== "number") continue;
    stats.parts++;
    stats.byType[part.type] = (stats.byType[part.type] ?? 0) + 1;
    stats.latenciesMs.push(arrived - part.data.at);
    if (part.type === "data-run" && part.data.status && part.data.status !== "running") {
      stats.terminalStatus = part.data.status;
      stats.endedAt = arrived;
    }
  }
  return stats;
}
