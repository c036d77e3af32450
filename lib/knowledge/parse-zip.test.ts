// Hostile archives and oversized documents (issue 52): a DOCX bomb fails in milliseconds with the limit
// named and the process's memory flat, whether its header tells the truth or lies; a document making
// too many passages, or taking too long to read, is refused whole; a normal DOCX still parses.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildDocx } from "../../test/fakes";
import { buildDocxBomb } from "../../test/fakes/docx";
import { AppError } from "../errors";
import { resetEnvCache } from "../env";
import { prepareDocument } from "./index-document";
import { parseDocument } from "./parse";
import { checkArchive } from "./parse-zip";

const MiB = 1024 * 1024;
const limits = { maxBytes: 8 * MiB, maxPages: 2_000, maxInflatedBytes: 64 * MiB, maxInflateRatio: 100, timeoutMs: 60_000 };

async function rejectsNaming(promise: Promise<unknown>, setting: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, "payload_too_large:document");
    assert.ok(error.message.includes(setting), `the message names ${setting}: ${error.message}`);
    assert.ok(error.message.startsWith('"'), `the message names the file: ${error.message}`);
    return true;
  });
}

test("a 200 MB DOCX bomb fails on the ratio cap, with the process's memory flat", async () => {
  const bomb = buildDocxBomb({ inflatedBytes: 200_000_000 });
  assert.ok(bomb.length < MiB, `the bomb is small: ${bomb.length} bytes`);
  globalThis.gc?.();
  const rss = process.memoryUsage().rss;
  await rejectsNaming(parseDocument("bomb.docx", bomb, limits), "KNOWLEDGE_MAX_INFLATE_RATIO");
  const grew = (process.memoryUsage().rss - rss) / MiB;
  assert.ok(grew < 150, `RSS grew ${grew.toFixed(0)} MiB`);
});

test("the inflated-size cap holds when the header lies and the ratio would pass", async () => {
  // The archive declares 1,000 bytes; only the bytes actually inflated count.
  const liar = buildDocxBomb({ inflatedBytes: 200_000_000, declaredBytes: 1_000 });
  const rss = process.memoryUsage().rss;
  await rejectsNaming(parseDocument("liar.docx", liar, { ...limits, maxInflateRatio: 10_000 }), "KNOWLEDGE_MAX_INFLATED_BYTES");
  // Stopped at the cap, not after inflating it all (no timing here: the bench measures time).
  assert.ok((process.memoryUsage().rss - rss) / MiB < 150);
  // A small cap stops a modest archive too, before mammoth reads any of it.
  await rejectsNaming(parseDocument("big.docx", buildDocxBomb({ inflatedBytes: 3 * MiB }), { ...limits, maxInflatedBytes: 2 * MiB, maxInflateRatio: 10_000 }), "KNOWLEDGE_MAX_INFLATED_BYTES");
});

test("a normal DOCX passes the archive check and parses; a damaged archive is corrupt, not a bomb", async () => {
  const docx = buildDocx([{ heading: "Budget", level: 1 }, { text: "Costs rose." }]);
  assert.doesNotThrow(() => checkArchive("a.docx", docx, limits));
  const parsed = await parseDocument("a.docx", docx, limits);
  assert.deepEqual(parsed.sections.map((s) => [s.section, s.text]), [["Budget", "Costs rose."]]);
  // Repetitive past the default ratio, but the ratio is a setting: with it raised, 2 MiB of one paragraph is read.
  const dull = await parseDocument("dull.docx", buildDocxBomb({ inflatedBytes: 2 * MiB }), { ...limits, maxInflateRatio: 10_000 });
  assert.ok(dull.sections[0].text.includes("Jack a dull boy"));
  const cut = docx.subarray(0, docx.length - 30);
  await assert.rejects(parseDocument("cut.docx", cut, limits), (error: unknown) => error instanceof AppError && error.code === "bad_request:document_corrupt");
});

test("reading past the time bound fails naming KNOWLEDGE_PARSE_TIMEOUT_MS", async () => {
  const slow = buildDocxBomb({ inflatedBytes: 2 * MiB });
  await rejectsNaming(parseDocument("slow.docx", slow, { ...limits, maxInflateRatio: 10_000, timeoutMs: 1 }), "KNOWLEDGE_PARSE_TIMEOUT_MS");
});

test("a document over KNOWLEDGE_MAX_CHUNKS is refused whole, before any embedding", async () => {
  const saved = { ...process.env };
  try {
    process.env.KNOWLEDGE_MAX_CHUNKS = "5";
    delete process.env.EMBEDDING_MODEL;
    resetEnvCache();
    const text = Array.from({ length: 10 }, (_, i) => `Paragraph ${i}. ${"word ".repeat(300)}`).join("\n\n");
    await rejectsNaming(prepareDocument("long.md", new TextEncoder().encode(text)), "KNOWLEDGE_MAX_CHUNKS");
    const { chunks } = await prepareDocument("short.md", new TextEncoder().encode("# Title\n\nOne short passage."));
    assert.equal(chunks.length, 1);
  } finally {
    process.env = saved;
    resetEnvCache();
  }
});
