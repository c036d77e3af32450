// A scrape's download runs in the caller's slot of the fetch limit and its extraction after it: a
// page's extraction never holds a slot the next page's download waits for. The scrape's time runs
// from the download's start, not from the wait for a slot, nor from the extraction workers' first start.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CONTENT_PAGES, FakeWeb } from "../../test/fakes";
import { sleep } from "../concurrency";
import { closeExtractPool } from "./extract-pool";
import { scrapeUrl } from "./index";

let web: FakeWeb;
before(async () => {
  web = new FakeWeb();
  await web.start();
});
after(async () => {
  await closeExtractPool();
  await web.stop();
});

const article = () => web.baseUrl + CONTENT_PAGES.find((p) => p.kind === "article")!.path;

describe("scrapeUrl's download slot", () => {
  it("a cold extraction pool's start (a process from sources: well over 300 ms) is not the page's time", async () => {
    // A cold pool, as in a process that just started (the CLIs and the stdio MCP server's first pages timed out under load).
    await closeExtractPool();
    const page = await scrapeUrl(article(), { allowPrivate: true, timeoutMs: 300 });
    assert.ok(page.text.length > 200);
  });

  it("holds the download only: what ran in the slot is the fetched body, the text is extracted after", async () => {
    const inSlot: unknown[] = [];
    let held = 0;
    const page = await scrapeUrl(article(), {
      allowPrivate: true,
      timeoutMs: 10_000,
      downloadSlot: async (download) => {
        held++;
        try {
          const fetched = await download();
          inSlot.push(fetched);
          return fetched;
        } finally {
          held--;
        }
      },
    });
    assert.equal(inSlot.length, 1, "the download ran in the slot, once");
    const fetched = inSlot[0] as { body: Uint8Array; finalUrl: string };
    assert.ok(fetched.body instanceof Uint8Array && fetched.finalUrl === article(), "the slot saw the raw body, not the page's text");
    assert.equal(held, 0);
    assert.ok(page.text.length > 100 && page.contentType === "html");
  });

  it("times the page from its download's start: a long wait for a slot is no timeout", async () => {
    const page = await scrapeUrl(article(), {
      allowPrivate: true,
      timeoutMs: 2_000,
      downloadSlot: async (download) => {
        await sleep(2_500);
        return download();
      },
    });
    assert.ok(page.text.length > 100);
  });
});
