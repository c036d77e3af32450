// The implementations under test: Readability over linkedom, over jsdom, and the product's own extractHtml.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Implementation } from "./extraction-measure";

const PRODUCT_MODULE = "@/lib/scrape";
export const PRODUCT_LABEL = "product (lib/scrape extractHtml)";
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

// DOM libraries load lazily, so each child process pays only for the one it measures.
export async function linkedomReadability(): Promise<Implementation> {
  const [{ Readability }, { parseHTML }] = await Promise.all([import("@mozilla/readability"), import("linkedom")]);
  return {
    id: "linkedom",
    label: "linkedom parseHTML + Readability",
    extract: (html) => {
      const { document } = parseHTML(html);
      return new Readability(document as unknown as Document).parse()?.textContent ?? "";
    },
  };
}

export async function jsdomReadability(): Promise<Implementation> {
  const [{ Readability }, { JSDOM, VirtualConsole }] = await Promise.all([import("@mozilla/readability"), import("jsdom")]);
  return {
    id: "jsdom",
    label: "jsdom new JSDOM(html, { url }) + Readability",
    extract: (html, url) => {
      // A bare VirtualConsole swallows jsdom's CSS parse errors instead of printing them.
      const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole() });
      try {
        return new Readability(dom.window.document).parse()?.textContent ?? "";
      } finally {
        dom.window.close();
      }
    },
  };
}

type ProductModule = { extractHtml?: (html: string, url: string) => { title: string | null; text: string } };

/** The product's extractor, if lib/scrape exists in this tree; otherwise the reason it was skipped. */
export async function loadProductImplementation(): Promise<Implementation | { skipped: string }> {
  if (!["lib/scrape/index.ts", "lib/scrape.ts"].some((p) => existsSync(join(REPO_ROOT, p)))) {
    return { skipped: "lib/scrape does not exist in this tree yet" };
  }
  let mod: ProductModule;
  try {
    // A variable specifier keeps tsc from requiring the module; tsx still resolves the @/ alias.
    const specifier: string = PRODUCT_MODULE;
    mod = (await import(specifier)) as ProductModule;
  } catch (error) {
    return { skipped: `importing ${PRODUCT_MODULE} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
  const extractHtml = mod.extractHtml;
  if (typeof extractHtml !== "function") return { skipped: `${PRODUCT_MODULE} does not export extractHtml` };
  return { id: "product", label: PRODUCT_LABEL, extract: (html, url) => extractHtml(html, url).text };
}

export async function resolveImplementation(id: Implementation["id"]): Promise<Implementation | { skipped: string }> {
  if (id === "linkedom") return linkedomReadability();
  if (id === "jsdom") return jsdomReadability();
  return loadProductImplementation();
}
