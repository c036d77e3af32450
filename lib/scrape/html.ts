// HTML → readable text: Readability's main content when it finds some, else the body's visible text.
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { stripBoilerplate } from "./boilerplate";
import { ELEMENT, TEXT, tagOf } from "./dom";
import { pageMetadata, type PageMetadata } from "./metadata";

// Never text a reader sees; nav and footer are page chrome (Readability keeps them on short pages).
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "OBJECT", "EMBED", "CANVAS", "HEAD", "NAV", "FOOTER"]);

const BLOCK = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "CAPTION", "DD", "DETAILS", "DIV", "DL", "DT", "FIELDSET",
  "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN",
  "NAV", "OL", "P", "PRE", "SECTION", "SUMMARY", "TABLE", "TR", "UL",
]);

const HEAD_CONTENT = new Set(["TITLE", "META", "LINK", "BASE", "STYLE", "SCRIPT", "NOSCRIPT", "TEMPLATE"]);

function startsBody(node: Node): boolean {
  if (node.nodeType === ELEMENT) return !HEAD_CONTENT.has(tagOf(node));
  return node.nodeType === TEXT && (node.textContent ?? "").trim() !== "";
}

// linkedom builds no implied elements: with <html>, <head> or <body> omitted (valid HTML), content is
// left where `document.body` cannot see it. Move each node where an HTML parser would have put it.
function normalizeTree(doc: Document): void {
  const { documentElement: root, head, body } = doc;
  const toBody: Node[] = [];
  for (const node of Array.from(head.childNodes)) {
    if (toBody.length > 0 || startsBody(node)) toBody.push(node);
  }
  const after: Node[] = [];
  // An empty body was most likely created by the `body` getter just now, in front of the loose content.
  const realBody = body.childNodes.length > 0;
  let seenBody = false;
  for (const node of Array.from(root.childNodes)) {
    if (node === head) continue;
    if (node === body) seenBody = realBody;
    else if (seenBody) after.push(node);
    else if (toBody.length === 0 && !startsBody(node)) head.append(node);
    else toBody.push(node);
  }
  body.prepend(...toBody);
  body.append(...after);
}

function loadDocument(html: string): Document {
  let { document } = parseHTML(html);
  // Without an <html> tag linkedom makes the first element the root, or finds no root at all.
  if (document.documentElement?.tagName.toUpperCase() !== "HTML") {
    ({ document } = parseHTML(`<!DOCTYPE html><html>${html.replace(/^\s*<!doctype[^>]*>/i, "")}</html>`));
  }
  const doc = document as unknown as Document;
  normalizeTree(doc);
  return doc;
}

function cleanDocument(html: string): Document {
  const doc = loadDocument(html);
  stripBoilerplate(doc);
  return doc;
}

/** Collapses runs of spaces, trims lines and keeps at most one blank line between paragraphs. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[^\S\n]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The text a reader would see, with blocks as paragraphs. Iterative: deep nesting cannot overflow. */
function visibleText(root: Node, skip: Set<string>): string {
  const out: string[] = [];
  const stack: Array<[Node, boolean] | string> = [];
  const pushChildren = (node: Node, pre: boolean) => {
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], pre]);
  };
  pushChildren(root, false);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const [node, pre] = item;
    if (node.nodeType === TEXT) {
      const text = node.textContent ?? "";
      out.push(pre ? text : text.replace(/\s+/g, " "));
      continue;
    }
    if (node.nodeType !== ELEMENT) continue;
    const el = node as Element;
    const tag = tagOf(el);
    if (skip.has(tag) || el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") continue;
    if (tag === "BR") {
      out.push("\n");
    } else if (BLOCK.has(tag)) {
      out.push("\n\n");
      stack.push("\n\n");
    } else if (tag === "TD" || tag === "TH") {
      out.push(" ");
    }
    pushChildren(el, pre || tag === "PRE");
  }
  return tidyText(out.join(""));
}

function cleanTitle(title: string | null | undefined): string | null {
  const t = (title ?? "").replace(/\s+/g, " ").trim();
  return t === "" ? null : t;
}

/** What the byline test below reads of Readability's (0.6.0) internals. */
interface BylineTest {
  REGEXPS: { byline: RegExp };
  _isValidByline(node: Element, matchString: string): boolean;
}

/**
 * Readability's byline test, its conditions in another order: the element's text is read only when
 * its rel, itemprop or class and id could make it a byline. Readability 0.6.0 reads every element's
 * whole text first (its textContent, the text of the whole page for the outer ones) until it finds a
 * byline: ~7% of the extraction threads' CPU on the large fixture web (bench/README.md). Same result
 * (the test compares both on every element of the fixture pages).
 */
export function isValidByline(this: Pick<BylineTest, "REGEXPS">, node: Element, matchString: string): boolean {
  const rel = node.getAttribute("rel");
  const itemprop = node.getAttribute("itemprop");
  if (!(rel === "author" || (itemprop && itemprop.includes("author")) || this.REGEXPS.byline.test(matchString))) return false;
  const length = (node.textContent ?? "").trim().length;
  return length > 0 && length < 100;
}

function reader(doc: Document): Readability<Node> {
  const instance = new Readability<Node>(doc, { serializer: (node) => node });
  (instance as unknown as BylineTest)._isValidByline = isValidByline;
  return instance;
}

/**
 * Main text and title of an HTML page. Pure and synchronous. `url` is the page's address; text
 * extraction does not depend on it, but it is part of the contract for callers that have one.
 */
export function extractHtml(html: string, url: string): { title: string | null; text: string } & PageMetadata {
  void url;
  const doc = loadDocument(html);
  const pageTitle = cleanTitle(doc.title);
  // Read before Readability, which rewrites the document.
  const metadata = pageMetadata(doc);
  stripBoilerplate(doc);
  let article: ReturnType<Readability<Node>["parse"]> = null;
  try {
    article = reader(doc).parse();
  } catch {
    article = null; // Readability gives up on some malformed trees; the fallback below still works
  }
  const main = article?.content ? visibleText(article.content, SKIP) : "";
  // Readability mutates the document it reads, so the fallback starts from a fresh parse.
  const text = main || visibleText(cleanDocument(html).body, SKIP);
  return { title: cleanTitle(article?.title) ?? pageTitle, text, ...metadata };
}
