// A fake OpenAI-compatible embeddings endpoint (POST /embeddings) whose vectors the test decides:
// `vectorOf(text)` for each input. Counts the texts it embedded.
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function startFakeEmbeddings(vectorOf: (text: string) => number[]): Promise<{ url: string; embedded: string[]; stop: () => Promise<void> }> {
  const embedded: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const { input, model } = JSON.parse(body) as { input: string | string[]; model: string };
      const texts = Array.isArray(input) ? input : [input];
      embedded.push(...texts);
      const data = texts.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data, model, usage: { prompt_tokens: texts.length, total_tokens: texts.length } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, embedded, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
