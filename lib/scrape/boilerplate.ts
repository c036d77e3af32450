// Page furniture that sits inside an article's container, where Readability keeps it: bylines and photo credits,
// "related" / "read more" lists, tags and topic clouds, newsletter and subscription promos, share bars, kickers,
// docs pages' edit / feedback / previous-next widgets, and captions repeated by galleries and lightboxes. Also
// the `<!-- -->` comments React's server render puts between interpolated values, which Readability treats as
// paragraph breaks (it wraps a <div>'s loose text in <p>s and a comment ends a run), cutting sentences in two.
// Removed from the DOM before Readability reads it. Pure: works on the document it is given.
//
// Each rule needs both a sign (class, id, role or label words; or what the block's own text starts with) and a
// shape (short, or mostly links), and nothing holding 40% of the page's text is ever removed, so that article
// text whose container happens to carry such a word stays.

import { CDATA, childrenFirst, COMMENT, ELEMENT, elementChildren, TEXT, tagOf } from "./dom";

const NEVER = new Set(["HTML", "BODY", "MAIN", "HEAD", "PRE", "CODE", "TABLE", "THEAD", "TBODY", "TR", "TD", "TH", "H1", "H2", "H3", "H4", "H5", "H6"]);

// Never text a reader sees.
const NO_TEXT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "OBJECT", "EMBED", "CANVAS"]);

const REPEATS_OK = new Set(["PRE", "CODE", "TABLE", "UL", "OL", "DL", "SCRIPT", "STYLE", "TEMPLATE", "SVG"]);

const INLINE = new Set(["A", "ABBR", "B", "BDI", "BDO", "BUTTON", "CITE", "CODE", "DATA", "DFN", "EM", "I", "IMG", "KBD", "LABEL", "MARK", "PICTURE", "Q", "S", "SAMP", "SMALL", "SOURCE", "SPAN", "STRONG", "SUB", "SUP", "TIME", "U", "VAR", "WBR", "BR", "SVG"]);

// Words in class / id / aria-label / data-* that name a kind of furniture.
const HIDDEN_SIGN = /(?:^|[\s_-])(?:visually-?hidden|sr-only|screen-?reader-?(?:text|only)|a11y-?hidden|visuallyhidden|offscreen)(?:$|[\s_-])/;
const BYLINE_SIGN = /byline|(?:^|[\s_-])author(?:s|-?name|-?info|-?bio|-?box)?(?:$|[\s_-])|contributor|dateline|(?:^|[\s_-])(?:photo-?|image-?|media-?)?credits?(?:$|[\s_-])|image-?source|photo-?source|posted-?(?:on|by)|(?:^|[\s_-])(?:post|entry|article|story)[-_]+(?:meta|info|details)(?:$|[\s_-])|timestamp|publish(?:ed)?-?date|pubdate|read-?time|reading-?time/;
const RELATED_SIGN = /related|recirc|recommend|more-?on-?this|read-?more|read-?next|keep-?reading|also-?like|might-?like|most-?(?:read|popular|viewed)|trending|more-?stories|more-?from|outbrain|taboola|further-?reading|what-?to-?read|up-?next/;
const TAGS_SIGN = /(?:^|[\s_-])(?:tags|tag-?cloud|tagcloud|tags?-?links|tags?-?list|topics|topic-?(?:list|tags|links)|keywords|filed-?under|categories|cat-?links|subjects)(?:$|[\s_-])/;
const PROMO_SIGN = /newsletter|subscri|sign-?up|signup|promo|(?:^|[\s_-])cta(?:$|[\s_-])|donat|paywall|membership|app-?(?:banner|promo|download)|support-?(?:us|promo|box)|follow-?us|inline-?signup|register-?wall/;
const SHARE_SIGN = /(?:^|[\s_-])(?:share|sharing|shares|share-?(?:bar|buttons|tools|links)|sharedaddy|social-?(?:share|links|icons|buttons|bar))(?:$|[\s_-])/;
const CHROME_SIGN = /code-?block-?(?:title|header|lang)|(?:^|[\s_-])(?:lang|language)-?(?:label|badge|name)(?:$|[\s_-])|kicker|eyebrow|breadcrumb|edit-?(?:this-?)?page|last-?updated|feedback|was-?this-?helpful|helpful-?widget|pagination|(?:^|[\s_-])pager(?:$|[\s_-])|post-?navigation|nav-?(?:previous|next)|prev-?next|table-?of-?contents|(?:^|[\s_-])toc(?:$|[\s_-])|on-?this-?page|comments?-?(?:area|section|list|wrapper|thread)|(?:^|[\s_-])(?:comments|discussion|disqus|responses|counter)(?:$|[\s_-])/;

// What a block's own text starts with.
const BYLINE_TEXT = /^(?:by|written by|words by|words and (?:photo(?:graph)?s|pictures) by|story by|reporting by|posted (?:on|by)|published(?: on)?|updated|last updated)\b/i;
const RELATED_TEXT = /^(?:related(?: articles| stories| posts| content| coverage| reading)?|more on this (?:story|topic)|more about this|read more|read next|keep reading|continue reading|you (?:may|might) also (?:like|enjoy)|recommended(?: for you| reading)?|most (?:read|popular|viewed)|more from [^.]{0,40}|more stories|also read|read also|don'?t miss|trending(?: now)?|what to read next|further reading|up next|see also)\b\s*:?/i;
const TAGS_TEXT = /^(?:tags|tagged(?: with| as)?|topics|filed under|categories|category|posted in|more about|keywords|related topics)\b\s*:?/i;
const PROMO_TEXT = /\b(?:sign up|signup|subscribe|subscription|newsletter|in your inbox|download (?:our|the) app|support (?:our|independent|quality) journalism|become a (?:member|subscriber|paid subscriber|supporter)|follow us on|reader-supported)\b/i;
const COMMENTS_TEXT = /^(?:\d+\s+comments?|comments?\s*\(\d+\)|(?:view|show|read|load|see|join)(?: all)?(?: the)?(?: \d+)? (?:comments|discussion|conversation))(?:\W|$)/i;
const AUTHOR_HREF = /\/(?:authors?|profiles?|contributors?|people|staff|writers?|journalists?|by)\/|\/@[\w.-]+/i;

interface Sized {
  /** Characters of text under the element. */
  text: number;
  /** Characters of text under its links. */
  link: number;
}

/** Text and link-text lengths of every element under root, computed bottom-up in one pass; comments removed on the way. */
function measure(root: Element): Map<Element, Sized> {
  const sizes = new Map<Element, Sized>();
  for (const el of childrenFirst(root)) {
    let text = 0;
    let link = 0;
    for (let c = el.firstChild; c; ) {
      const next = c.nextSibling;
      if (c.nodeType === COMMENT) el.removeChild(c);
      else if (c.nodeType === TEXT) text += (c.textContent ?? "").trim().length;
      else if (c.nodeType === ELEMENT) {
        const s = sizes.get(c as Element);
        if (s) {
          text += s.text;
          link += s.link;
        }
      }
      c = next;
    }
    const tag = tagOf(el);
    if (tag === "A") link = text;
    if (NO_TEXT.has(tag)) text = link = 0;
    sizes.set(el, { text, link });
  }
  return sizes;
}

function signOf(el: Element): string {
  if (!el.hasAttributes()) return "";
  const parts = [el.getAttribute("class"), el.id, el.getAttribute("aria-label"), el.getAttribute("data-component"), el.getAttribute("data-testid"), el.getAttribute("itemprop"), el.getAttribute("role")];
  // camelCase (CSS modules' "InlinePromo_x__ab12") becomes words.
  return parts.filter(Boolean).join(" ").replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
}

// Whitespace other than single spaces: without any, collapsing runs would change nothing.
const MESSY_SPACE = /[^\S ]| {2}/;
const norm = (text: string) => (MESSY_SPACE.test(text) ? text.replace(/\s+/g, " ") : text).trim();

/** Normalised text (`norm`), and whether the raw text began and ended with whitespace: enough to join two exactly. */
interface Run {
  text: string;
  lead: boolean;
  trail: boolean;
}

const EMPTY: Run = { text: "", lead: false, trail: false };
const LEADING_SPACE = /^\s/;
const TRAILING_SPACE = /\s$/;

function runOf(raw: string): Run {
  return raw === "" ? EMPTY : { text: norm(raw), lead: LEADING_SPACE.test(raw), trail: TRAILING_SPACE.test(raw) };
}

/** The run of raw texts a + b: norm(a + b), from norm(a) and norm(b). */
function join(a: Run, b: Run): Run {
  if (a.text === "") return { text: b.text, lead: a.lead || b.lead, trail: b.text === "" ? a.trail || b.trail : b.trail };
  if (b.text === "") return { text: a.text, lead: a.lead, trail: a.trail || b.trail };
  return { text: a.text + (a.trail || b.lead ? " " : "") + b.text, lead: a.lead, trail: b.trail };
}

/**
 * `norm(el.textContent)` for the elements looked at, each built once from its children's (a nested block's
 * text was normalised anew at every level: a sixth of the extraction's CPU on the large fixture web). A removal
 * forgets the texts of the removed element's ancestors.
 */
export class Texts {
  private readonly runs = new Map<Element, Run>();

  text(el: Element): string {
    return this.run(el).text;
  }

  removed(el: Element): void {
    for (let a = el.parentElement; a; a = a.parentElement) this.runs.delete(a);
  }

  private run(root: Element): Run {
    const known = this.runs.get(root);
    if (known) return known;
    // Children before their parent; texts already known are not built again.
    for (const el of childrenFirst(root, (c) => this.runs.has(c))) {
      let run = EMPTY;
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === TEXT || c.nodeType === CDATA) run = join(run, runOf(c.textContent ?? ""));
        else if (c.nodeType === ELEMENT) run = join(run, this.runs.get(c as Element)!);
      }
      this.runs.set(el, run);
    }
    return this.runs.get(root)!;
  }
}

function hasAuthorLink(el: Element): boolean {
  for (const a of el.querySelectorAll("a, time, [rel=author], [itemprop=author]")) {
    if (tagOf(a) !== "A" || a.getAttribute("rel") === "author" || AUTHOR_HREF.test(a.getAttribute("href") ?? "")) return true;
  }
  return false;
}

function hasForm(el: Element): boolean {
  return el.querySelector("form, input[type=email], button") !== null || [...el.querySelectorAll("a")].some((a) => /\b(?:btn|button)\b/i.test(a.getAttribute("class") ?? ""));
}

/** The text of the element's first heading-like child, if it starts with one (a list's title). */
function leadText(el: Element, texts: Texts): string {
  const first = elementChildren(el)[0];
  return texts.text(first ?? el).slice(0, 80);
}

function allLinksAreTags(el: Element): boolean {
  const links = el.querySelectorAll("a");
  if (links.length < 2) return false;
  for (const a of links) if (!/\btag\b/i.test(a.getAttribute("rel") ?? "")) return false;
  return true;
}

/** Why this element is furniture, or null. */
function furniture(el: Element, size: Sized, bodyText: number, texts: Texts): string | null {
  const tag = tagOf(el);
  if (NEVER.has(tag) || size.text === 0) return null;
  if (size.text > bodyText * 0.4 && size.text > 400) return null; // holds much of the page: never
  const sign = signOf(el);
  const density = size.link / size.text;
  if (sign !== "") {
    if (HIDDEN_SIGN.test(sign) && size.text < 200) return "hidden";
    if (BYLINE_SIGN.test(sign) && size.text < 300) return "byline";
    if (el.getAttribute("rel") === "author" || el.getAttribute("itemprop") === "author") return size.text < 200 ? "byline" : null;
    if (RELATED_SIGN.test(sign) && (density >= 0.35 || size.text < 160)) return "related";
    if (TAGS_SIGN.test(sign) && (density >= 0.3 || size.text < 160)) return "tags";
    if (PROMO_SIGN.test(sign) && size.text < 700) return "promo";
    if (SHARE_SIGN.test(sign) && size.text < 200) return "share";
    if (CHROME_SIGN.test(sign) && (size.text < 300 || density >= 0.5)) return "chrome";
  }
  if (INLINE.has(tag) && tag !== "SPAN") return null;
  // By what the block says: only short blocks, or link lists, are looked at.
  const links = density >= 0.3;
  if (size.text > 700 || (size.text >= 400 && !links)) return null;
  if (links && size.text < 600 && allLinksAreTags(el)) return "tags";
  const text = texts.text(el);
  if (size.text < 160 && BYLINE_TEXT.test(text) && (size.text < 70 || hasAuthorLink(el))) return "byline";
  if (links && size.text < 300 && TAGS_TEXT.test(text)) return "tags";
  // "Read more: <a>…</a>", or a titled list of links.
  if (density >= 0.35 && (RELATED_TEXT.test(text) || RELATED_TEXT.test(leadText(el, texts)))) return "related";
  if (size.text < 400 && PROMO_TEXT.test(text) && hasForm(el)) return "promo";
  if (size.text < 60 && density >= 0.5 && COMMENTS_TEXT.test(text)) return "comments";
  return null;
}

/** Removes React's comment markers and page furniture from the document's body, in place. */
export function stripBoilerplate(doc: Document): void {
  const body = doc.body;
  if (!body) return;
  const sizes = measure(body);
  const bodyText = sizes.get(body)?.text ?? 0;
  const texts = new Texts();
  const stack: Element[] = elementChildren(body).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    const size = sizes.get(el);
    if (size && furniture(el, size, bodyText, texts)) {
      // Its text no longer counts in its ancestors'.
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = sizes.get(a);
        if (s) {
          s.text -= size.text;
          s.link -= size.link;
        }
      }
      texts.removed(el);
      el.remove();
      continue;
    }
    const kids = elementChildren(el);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  // Only text is extracted, but Readability drops a block with more images than paragraphs (a gallery), captions
  // and all: a captioned figure keeps its caption and loses its images.
  for (const figure of body.querySelectorAll("figure")) {
    const caption = figure.querySelector("figcaption");
    if (!caption || texts.text(caption) === "") continue;
    for (const img of figure.querySelectorAll("img, picture, source, amp-img")) {
      texts.removed(img);
      img.remove();
    }
  }
  dropRepeats(body, sizes, texts);
}

/**
 * A block whose whole text already appeared earlier on the page (a caption repeated by a gallery's thumbnails, a
 * lightbox or a slideshow strip) goes; the first copy stays. Only prose-length blocks count, outside tables, lists
 * and code, where short texts repeat by nature.
 */
function dropRepeats(body: Element, sizes: Map<Element, Sized>, texts: Texts): void {
  const seen = new Set<string>();
  const stack: Element[] = elementChildren(body).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    const tag = tagOf(el);
    if (REPEATS_OK.has(tag)) continue;
    const size = sizes.get(el)!;
    const parent = el.parentElement;
    // An element carrying all of its parent's text is the same block as the parent, already looked at.
    if (size.text >= 25 && size.text <= 500 && !NEVER.has(tag) && !(parent && sizes.get(parent)?.text === size.text)) {
      const text = texts.text(el);
      if (seen.has(text)) {
        texts.removed(el);
        el.remove();
        continue;
      }
      seen.add(text);
    }
    if (size.text < 25) continue;
    const kids = elementChildren(el);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}
