// Pages whose text holds NUL characters (PostgreSQL refuses them): HTML and plain text from the
// fixture web server, with a NUL at the start of every paragraph, come back without them. (pdf.js
// already drops a NUL from a PDF's text; the same line cleans whatever an extractor gives.)
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CONTENT_PAGES, FakeWeb } from "../../test/fakes";
import { scrapeUrl } from "./index";

let web: FakeWeb;
before(async () => {
  web = new FakeWeb({ inject: "\u0000" });
  await web.start();
});
after(() => web.stop());

describe("scrapeUrl with NUL characters in the page", () => {
  for (const [fixtureKind, kind] of [["article", "html"], ["text", "text"]] as const) {
    it(`${kind}: the text is kept, the NUL dropped`, async () => {
      const fixture = CONTENT_PAGES.find((p) => p.kind === fixtureKind)!;
      const page = await scrapeUrl(web.baseUrl + fixture.path, { allowPrivate: true, timeoutMs: 10_000 });
      assert.equal(page.contentType, kind);
      assert.ok(!page.text.includes("\u0000") && !page.title?.includes("\u0000"), JSON.stringify(page.text.slice(0, 120)));
      assert.ok(page.text.replace(/\s+/g, " ").includes(fixture.facts[0]), page.text.slice(0, 300));
    });
  }
});
