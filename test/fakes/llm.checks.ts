// Checks of the fake LLM through the real AI SDK client and over raw HTTP. Registered by fakes.test.ts.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, NoObjectGeneratedError, Output, streamText } from "ai";
import { z } from "zod";
import { FABRICATED_URL, type Fakes } from "./index";

const queriesSchema = z.object({ queries: z.array(z.object({ query: z.string(), objective: z.string() })) });
const sys = (agent: string) => `You are Quarry's ${agent} agent.\nFollow the instructions.`;
const t = (name: string, content: string, attrs = "") => `<${name}${attrs}>\n${content}\n</${name}>`;

export function registerLlmChecks(get: () => Fakes): void {
  const model = () => createOpenAI({ baseURL: get().llm.url, apiKey: "test" }).chat("fake-model");
  const chat = (body: object) =>
    fetch(`${get().llm.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const queryRequest = (prompt = "How do heat pumps perform in cold climates?", count = 4) => ({
    model: "fake-model",
    messages: [
      { role: "system", content: sys("query-generator") },
      { role: "user", content: `${t("prompt", prompt)}\n${t("count", String(count))}` },
    ],
  });

  describe("fake LLM", () => {
    beforeEach(() => get().llm.reset());

    test("structured output round-trip through the AI SDK: exact count, unique, deterministic tokens", async () => {
      const prompt = `${t("prompt", "How do heat pumps perform in cold climates?")}\n${t("count", "4")}`;
      const run = () => generateText({ model: model(), output: Output.object({ schema: queriesSchema, name: "query-generator" }), system: sys("query-generator"), prompt });
      const first = await run();
      assert.equal(first.output.queries.length, 4);
      assert.ok(first.output.queries.every((q) => /^how do heat pumps perform aspect \d+$/.test(q.query)));
      const second = await run();
      const all = [...first.output.queries, ...second.output.queries].map((q) => q.query);
      assert.equal(new Set(all).size, 8, "query texts stay unique over the fake's lifetime");
      const [entry] = get().llm.log;
      assert.equal(entry.agent, "query-generator");
      assert.equal(entry.response_format_name, "query-generator");
      assert.equal(first.usage.inputTokens, entry.promptTokens);
      assert.equal(first.usage.outputTokens, Math.ceil(JSON.stringify(first.output).length / 4));
      assert.equal(get().llm.counts()["query-generator"], 2);
    });

    test("child queries name their parent branch; count overrides", async () => {
      const chain = t("query", "Query: how do heat pumps perform aspect 2\nObjective: x\nLearnings:\n- fact (https://a.example/)", ' level="parent"').replace("</query>", "< /query>");
      const prompt = `${t("prompt", "How do heat pumps perform in cold climates?")}\n${t("parent_chain", chain)}\n${t("count", "2")}`;
      const child = await generateText({ model: model(), output: Output.object({ schema: queriesSchema }), system: sys("query-generator"), prompt });
      assert.deepEqual(child.output.queries.map((q) => q.query), ["how do heat pumps perform aspect 2.1", "how do heat pumps perform aspect 2.2"]);
      get().llm.configure({ queryCountOverride: "more" });
      const more = (await (await chat(queryRequest())).json()) as { choices: { message: { content: string } }[] };
      assert.equal(JSON.parse(more.choices[0].message.content).queries.length, 6);
      get().llm.configure({ queryCountOverride: "fewer" });
      const fewer = (await (await chat(queryRequest())).json()) as { choices: { message: { content: string } }[] };
      assert.equal(JSON.parse(fewer.choices[0].message.content).queries.length, 3);
    });

    test("prompt analyzer and website analyzer", async () => {
      const questions = await generateText({
        model: model(),
        output: Output.object({ schema: z.object({ questions: z.array(z.string()) }) }),
        system: sys("prompt-analyzer"),
        prompt: `${t("prompt", "Microplastics in tap water")}\n${t("count", "5")}`,
      });
      assert.equal(questions.output.questions.length, 5);
      assert.ok(questions.output.questions.every((q) => q.includes("microplastics in tap water")));

      const page = "Menu Home\nTap water samples from 38 systems contained 5 to 90 particles per litre. Bottled water averaged 240 particles per litre. Subscribe now!";
      const itemsSchema = z.object({ items: z.array(z.object({ content: z.string() })) });
      const analyze = (text: string) =>
        generateText({
          model: model(),
          output: Output.object({ schema: itemsSchema }),
          system: sys("website-analyzer"),
          prompt: `${t("objective", "Find particle counts in water")}\n${t("page", text, ' url="https://w.example/a" title="A"')}`,
        });
      const { output } = await analyze(page);
      assert.ok(output.items.length >= 1 && output.items.length <= 3);
      for (const item of output.items) assert.ok(page.includes(item.content), `copied from the page: ${item.content}`);
      assert.deepEqual((await analyze("")).output.items, []);
    });

    test("streamed report cites only given sources, plus a fabricated one on request", async () => {
      const sources = [
        t("source", "- Tap water had 5 to 90 particles per litre.\n- Bottled water had 240.", ' url="https://a.example/water"'),
        t("source", "- Reverse osmosis removed 99 percent.", ' url="https://b.example/ro"'),
      ].map((s) => s.replace("</source>", "< /source>"));
      const prompt = `${t("prompt", "Microplastics in tap water")}\n${t("learnings", sources.join("\n"))}`;
      get().llm.configure({ latencyMs: 40 });
      const streamed = streamText({ model: model(), system: sys("report-writer"), prompt });
      let deltas = 0;
      for await (const _ of streamed.textStream) deltas++;
      const text = await streamed.text;
      assert.ok(deltas > 10, "arrives in many chunks");
      assert.match(text, /^# .+/);
      assert.ok((text.match(/^## /gm) ?? []).length >= 2);
      assert.match(text, /^- .+\[1\]\(https:\/\/a\.example\/water\)\.$/m);
      const cited = [...text.matchAll(/\]\((https?:[^)]+)\)/g)].map((m) => m[1]);
      assert.deepEqual([...new Set(cited)].sort(), ["https://a.example/water", "https://b.example/ro"]);
      assert.equal((await streamed.usage).outputTokens, Math.ceil(text.length / 4));

      get().llm.configure({ hallucinateCitation: true, latencyMs: 0 });
      const lying = await generateText({ model: model(), system: sys("report-writer"), prompt });
      assert.equal(lying.text.split(FABRICATED_URL).length - 1, 1);
    });

    test("unknown agents get a minimal instance of the JSON schema", async () => {
      const schema = z.object({ title: z.string(), tags: z.array(z.string()).min(2), score: z.number().min(3), kind: z.enum(["a", "b"]) });
      const { output } = await generateText({ model: model(), output: Output.object({ schema }), system: "You are a helpful assistant.", prompt: "Hi" });
      assert.deepEqual(output, { title: "example", tags: ["example", "example"], score: 3, kind: "a" });
    });

    test("sloppy mode fences JSON in prose; broken JSON then recovers", async () => {
      get().llm.configure({ sloppy: true });
      const sloppy = await generateText({ model: model(), system: sys("query-generator"), prompt: `${t("prompt", "Solar recycling")}\n${t("count", "2")}` });
      assert.match(sloppy.text, /^Sure!.*\n\n```json\n\{.*\}\n```\n\nLet me know/s);
      await assert.rejects(
        generateText({ model: model(), output: Output.object({ schema: queriesSchema }), system: sys("query-generator"), prompt: "<count>\n1\n</count>", maxRetries: 0 }),
        (error) => NoObjectGeneratedError.isInstance(error) && (error.text ?? "").includes("```json"),
      );

      get().llm.reset();
      get().llm.configure({ brokenJsonTimes: 1 });
      const broken = await (await chat(queryRequest())).json() as { choices: { message: { content: string } }[] };
      assert.throws(() => JSON.parse(broken.choices[0].message.content));
      const repaired = await (await chat(queryRequest())).json() as { choices: { message: { content: string } }[] };
      assert.equal(JSON.parse(repaired.choices[0].message.content).queries.length, 4);
    });

    test("429 with Retry-After, failAll, seeded failureRate, hangAll", async () => {
      get().llm.configure({ fail429Times: 1, retryAfterSeconds: 7 });
      const limited = await chat(queryRequest());
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get("retry-after"), "7");
      assert.equal(((await limited.json()) as { error: { code: string } }).error.code, "rate_limit_exceeded");
      assert.equal((await chat(queryRequest())).status, 200);

      get().llm.configure({ failAll: 503 });
      assert.equal((await chat(queryRequest())).status, 503);
      get().llm.reset();
      assert.equal((await chat(queryRequest())).status, 200);

      const statuses = async () => {
        get().llm.reset();
        get().llm.configure({ failureRate: 0.5, seed: 42 });
        const out: number[] = [];
        for (let i = 0; i < 16; i++) out.push((await chat(queryRequest())).status);
        return out;
      };
      const run1 = await statuses();
      assert.ok(run1.includes(500) && run1.includes(200));
      assert.deepEqual(await statuses(), run1);

      get().llm.configure({ hangAll: true, failureRate: 0 });
      await assert.rejects(fetch(`${get().llm.url}/chat/completions`, { method: "POST", body: JSON.stringify(queryRequest()), signal: AbortSignal.timeout(150) }));
    });

    test("latency rules slow one branch; HTTP control, log and reset", async () => {
      const { llm } = get();
      const control = await fetch(`${llm.baseUrl}/__control`, { method: "POST", body: JSON.stringify({ latencyRules: [{ match: "slow branch", latencyMs: 400 }] }) });
      assert.equal(control.status, 200);
      assert.equal(llm.currentOptions().latencyRules.length, 1);
      let started = Date.now();
      await chat(queryRequest("a fast branch"));
      const fast = Date.now() - started;
      started = Date.now();
      await chat(queryRequest("a slow branch"));
      const slow = Date.now() - started;
      assert.ok(slow >= 390 && fast < slow - 200, `fast ${fast} ms, slow ${slow} ms`);

      const bad = await fetch(`${llm.url}/__control`, { method: "POST", body: JSON.stringify({ nope: 1 }) });
      assert.equal(bad.status, 400);
      const log = (await (await fetch(`${llm.baseUrl}/__log`)).json()) as { entries: unknown[]; counts: Record<string, number> };
      assert.equal(log.entries.length, 2);
      assert.deepEqual(log.counts, { "query-generator": 2 });
      await fetch(`${llm.baseUrl}/__reset`, { method: "POST" });
      assert.equal(llm.log.length, 0);
      assert.deepEqual(llm.currentOptions().latencyRules, []);

      const models = (await (await fetch(`${llm.url}/models`)).json()) as { data: { id: string }[] };
      assert.equal(models.data[0].id, "fake-model");
    });
  });
}
