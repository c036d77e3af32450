// The fixture web server's content: 24 articles generated from TOPICS, a plain-text page, a PDF,
// and the catalogue of failing paths. Shared with the fake SearXNG so that results point at pages
// that exist, with their real titles and snippets.
import { buildPdf } from "./pdf";
import { renderArticle, slugify, type Template } from "./web-templates";
import { TOPICS } from "./web-topics";

export type PageKind = "article" | "text" | "pdf";

export interface FixturePage {
  /** Path on the fixture web server, e.g. /articles/grid-batteries-doubled-in-2024-but-winter-gaps-remain */
  path: string;
  kind: PageKind;
  title: string;
  /** A sentence from the page, used as the search snippet. */
  snippet: string;
  /** Facts stated on the page (full sentences, as they appear in the text). */
  facts: string[];
}

const TEMPLATES: Template[] = ["news", "docs", "blog", "forum"];

interface Article extends FixturePage {
  template: Template;
  html: string;
}

function buildArticles(): Article[] {
  const drafts = TOPICS.flatMap((topic, t) =>
    ([0, 1] as const).map((variant) => {
      const title = topic.titles[variant];
      return {
        topic,
        title,
        path: `/articles/${slugify(title)}`,
        template: TEMPLATES[(t + variant * 2) % TEMPLATES.length],
        // Two pages per topic overlap in a few facts, as two real sources on one subject do.
        facts: variant === 0 ? topic.facts.slice(0, 6) : topic.facts.slice(3, 9),
      };
    }),
  );
  return drafts.map((draft, index) => {
    const related = [1, 2, 3].map((k) => drafts[(index + k * 5) % drafts.length]).map((d) => ({ path: d.path, title: d.title }));
    return {
      path: draft.path,
      kind: "article",
      title: draft.title,
      snippet: draft.facts[0],
      facts: draft.facts,
      template: draft.template,
      html: renderArticle({ topic: draft.topic, title: draft.title, facts: draft.facts, template: draft.template, index, related }),
    };
  });
}

export const ARTICLES: Article[] = buildArticles();

const NOTES_FACTS = [
  "The municipal water utility tested 412 samples in 2024 and found lead above the action level of 15 parts per billion in 9 of them.",
  "Replacing the remaining 3,800 lead service lines is budgeted at 41 million dollars over six years.",
  "Households on the replacement list receive a certified filter pitcher and cartridges free of charge until their line is replaced.",
];

export const NOTES_TXT = `FIELD NOTES — drinking water infrastructure review
Compiled 2025-02-14 for the regional planning committee.

${NOTES_FACTS.join("\n\n")}

Open questions: the utility has not yet published results by neighbourhood, and the schedule for
schools and childcare centres is still under discussion.
`;

const PDF_FACTS = [
  "In fiscal year 2024 the Regional Transit Authority carried 218 million passengers, 6.4 percent more than in 2023.",
  "Fare revenue covered 38 percent of operating costs, up from 33 percent two years earlier.",
  "The authority took delivery of 145 battery-electric buses, bringing the zero-emission share of its fleet to 27 percent.",
  "On-time performance on the bus network averaged 84.7 percent, against a target of 88 percent.",
];

export const REPORT_PDF: Buffer = buildPdf({
  title: "Regional Transit Authority - Annual Report 2024",
  paragraphs: [
    "Summary of operations and finances for the fiscal year ending 30 June 2024.",
    ...PDF_FACTS,
    "The full financial statements are available from the authority's records office.",
  ],
});

/** Every page that serves real content: the 24 articles, the text page and the PDF. */
export const CONTENT_PAGES: FixturePage[] = [
  ...ARTICLES.map(({ path, kind, title, snippet, facts }) => ({ path, kind, title, snippet, facts })),
  { path: "/text/notes.txt", kind: "text", title: "Field notes: drinking water infrastructure review", snippet: NOTES_FACTS[0], facts: NOTES_FACTS },
  { path: "/docs/report.pdf", kind: "pdf", title: "Regional Transit Authority Annual Report 2024 (PDF)", snippet: PDF_FACTS[0], facts: PDF_FACTS },
];

export interface FailingPage {
  path: string;
  /** What the product should see when it fetches the page. */
  behaviour: string;
  /** A plausible search-result title, so that search results do not give the failure away. */
  title: string;
  /**
   * Redirects to a real private or metadata address. Never let the product follow these with
   * SCRAPE_ALLOW_PRIVATE=1: it would connect to that address. Left out of search results and of
   * failingPages() unless asked for.
   */
  ssrfBait?: true;
}

export const FAILING_PAGES: FailingPage[] = [
  { path: "/fail/403", behaviour: "403 Forbidden", title: "Members-only market analysis 2025" },
  { path: "/fail/500", behaviour: "500 Internal Server Error", title: "Statistical yearbook: key indicators" },
  { path: "/fail/hang", behaviour: "accepts the connection and never answers", title: "Conference proceedings archive" },
  { path: "/fail/slow?ms=20000", behaviour: "answers with an article after ?ms milliseconds", title: "Long-read: the decade in review" },
  { path: "/fail/binary", behaviour: "application/octet-stream, random bytes", title: "Dataset download: raw measurements" },
  { path: "/fail/image.png", behaviour: "image/png", title: "Infographic: the numbers at a glance" },
  { path: "/fail/huge", behaviour: "streams 20 MiB of HTML without Content-Length (?declared adds it)", title: "Complete technical appendix (all tables)" },
  { path: "/fail/redirect-loop", behaviour: "302 between two URLs forever", title: "Press release archive" },
  { path: "/redirect/private", behaviour: "302 to http://10.0.0.1/ (SSRF bait)", title: "Internal dashboard export", ssrfBait: true },
  { path: "/redirect/metadata", behaviour: "302 to http://169.254.169.254/latest/meta-data/ (SSRF bait)", title: "Cloud cost report", ssrfBait: true },
  { path: "/fail/empty", behaviour: "200 HTML with no text", title: "Interactive map of projects" },
];

export const EMPTY_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title></title>
<script>window.__APP_STATE__={"route":"/map","hydrated":false};</script>
<style>#root{min-height:100vh}</style></head>
<body><div id="root"></div><noscript></noscript>
<script>document.getElementById("root").setAttribute("data-ready","1");</script></body></html>
`;

/** A valid 1×1 transparent PNG. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
