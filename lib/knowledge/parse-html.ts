// HTML (and DOCX, through mammoth's HTML) → sections: h1–h6 start sections, block elements separate
// paragraphs, page chrome and scripts are skipped. Iterative, so deep nesting cannot overflow.
import { parseHTML } from "linkedom";
import { SectionBuilder, type ParsedSection } from "./sections";

const SKIP = new Set(["TITLE", "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "OBJECT", "EMBED", "CANVAS", "HEAD", "NAV"]);
const BLOCK = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BODY", "CAPTION", "DD", "DETAILS", "DIV", "DL", "DT", "FIELDSET",
  "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "HEADER", "HR", "LI", "MAIN", "OL", "P", "PRE", "SECTION", "SUMMARY",
  "TABLE", "TD", "TH", "TR", "UL", "BR",
]);
const ELEMENT = 1;
const TEXT = 3;

export function parseHtml(html: string): { title: string | null; sections: ParsedSection[] } {
  const { document } = parseHTML(/<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><body>${html}</body></html>`);
  const builder = new SectionBuilder();
  let inline = "";
  const flush = () => {
    builder.paragraph(inline);
    inline = "";
  };
  const root = (document.body ?? document.documentElement) as unknown as Node | null;
  const stack: Array<Node | "flush"> = root ? [root] : [];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item === "flush") {
      flush();
      continue;
    }
    if (item.nodeType === TEXT) {
      inline += item.textContent ?? "";
      continue;
    }
    if (item.nodeType !== ELEMENT) continue;
    const tag = (item as Element).tagName.toUpperCase();
    if (SKIP.has(tag)) continue;
    const heading = tag.match(/^H([1-6])$/);
    if (heading) {
      flush();
      builder.heading(Number(heading[1]), item.textContent ?? "");
      continue;
    }
    const block = BLOCK.has(tag);
    if (block) {
      flush();
      stack.push("flush");
    }
    const kids = Array.from(item.childNodes);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  flush();
  const title = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  return { title: title || builder.firstHeading, sections: builder.finish() };
}
