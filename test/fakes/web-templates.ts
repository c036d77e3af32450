// Page templates for the fixture web server: a news article, a docs page, a blog post and a forum
// thread, each inside realistic chrome (nav menus, cookie banner, inline scripts, sidebar, footer)
// so that the product's readability extraction has boilerplate to remove.
import type { Topic } from "./web-topics";

export type Template = "news" | "docs" | "blog" | "forum";

export interface ArticleInput {
  topic: Topic;
  title: string;
  facts: string[];
  template: Template;
  index: number;
  related: { path: string; title: string }[];
}

const AUTHORS = ["Maren Holt", "Tomás Ribeiro", "Aiko Tanaka", "Priya Raman", "Jonas Weber", "Lena Okafor", "Samuel Brandt", "Ines Duarte"];
const FORUM_USERS = ["gridnerd42", "quietfield", "r_castellan", "data_otter", "mkl_dev", "northwind7"];

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 64)
    .replace(/-$/, "");
}

export function publishedDate(index: number): string {
  return `2025-${String((index % 9) + 1).padStart(2, "0")}-${String((index * 7) % 27 + 1).padStart(2, "0")}`;
}

const SITES: Record<Template, { name: string; menu: string[] }> = {
  news: { name: "The Meridian Ledger", menu: ["World", "Business", "Science", "Climate", "Technology", "Opinion"] },
  docs: { name: "FieldGuide Docs", menu: ["Guides", "Reference", "Tutorials", "API", "Changelog"] },
  blog: { name: "Notes from the Workbench", menu: ["Archive", "Projects", "About", "RSS"] },
  forum: { name: "Practitioners' Forum", menu: ["Categories", "Latest", "Top", "Members", "Rules"] },
};

const p = (text: string) => `<p>${escapeHtml(text)}</p>`;

function newsBody({ topic, facts, index }: ArticleInput): string {
  const author = AUTHORS[index % AUTHORS.length];
  const [lead, ...rest] = facts;
  const quoteFact = rest.pop() ?? lead;
  return [
    `<p class="byline">By <a href="/authors/${slugify(author)}">${author}</a> · <time datetime="${publishedDate(index)}">${publishedDate(index)}</time> · 6 min read</p>`,
    `<p class="lead"><strong>${escapeHtml(lead)}</strong></p>`,
    p(`The figures, published this week, add to a growing body of evidence on ${topic.subject}.`),
    `<h2>${topic.sections[0]}</h2>`,
    p(rest.slice(0, 2).join(" ")),
    `<figure><img src="/static/${topic.key}.jpg" alt="Illustration for ${escapeHtml(topic.subject)}"><figcaption>Photo: Ledger archive</figcaption></figure>`,
    `<h2>${topic.sections[1]}</h2>`,
    p(rest.slice(2).join(" ")),
    `<blockquote><p>“${escapeHtml(quoteFact)}”</p><cite>— ${AUTHORS[(index + 3) % AUTHORS.length]}, lead analyst</cite></blockquote>`,
    `<h2>${topic.sections[2]}</h2>`,
    p(`Experts interviewed for this article cautioned that the picture for ${topic.subject} could change quickly as new data arrive.`),
  ].join("\n");
}

function docsBody({ topic, facts }: ArticleInput): string {
  const sections = [facts.slice(0, 2), facts.slice(2, 4), facts.slice(4)];
  return [
    `<nav aria-label="breadcrumb"><ol><li><a href="/">Docs</a></li><li><a href="/guides">Guides</a></li><li>${escapeHtml(topic.subject)}</li></ol></nav>`,
    p(`This guide summarises what practitioners need to know about ${topic.subject}, with the figures that matter when planning.`),
    ...sections.flatMap((group, i) => [
      `<h2 id="section-${i + 1}">${topic.sections[i]}</h2>`,
      group.length > 1 ? `<ul>${group.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul>` : p(group.join(" ")),
    ]),
    `<div class="callout note"><strong>Note:</strong> ${escapeHtml(facts[0])}</div>`,
    `<pre><code class="language-yaml"># example planning parameters\nsubject: "${topic.key}"\nreview_interval_days: 90\n</code></pre>`,
    p("Last reviewed by the documentation team. Found a mistake? Open an issue on the docs repository."),
  ].join("\n");
}

function blogBody({ topic, facts, index }: ArticleInput): string {
  const author = AUTHORS[(index + 5) % AUTHORS.length];
  return [
    `<p class="post-meta">Posted on ${publishedDate(index)} by ${author} · 9 comments</p>`,
    p(`I have spent the last few months reading everything I could find about ${topic.subject}, and a few numbers kept coming up.`),
    p(facts.slice(0, 2).join(" ")),
    `<h2>${topic.sections[1]}</h2>`,
    p(`The part that surprised me most: ${facts[2] ?? facts[0]}`),
    p(facts.slice(3, 5).join(" ")),
    `<h2>What I would watch next</h2>`,
    p(facts.slice(5).join(" ") || `There is a lot more to say about ${topic.subject}.`),
    p("If you have data that contradicts any of this, please get in touch — I update posts when I learn something new."),
    `<section class="comments"><h3>Comments</h3>`,
    `<div class="comment"><b>Ana</b><p>Great write-up, thanks for collecting the sources!</p></div>`,
    `<div class="comment"><b>Dev K.</b><p>Would love a follow-up post on this.</p></div></section>`,
  ].join("\n");
}

function forumBody({ topic, facts, index }: ArticleInput): string {
  const user = (i: number) => FORUM_USERS[(index + i) % FORUM_USERS.length];
  const posts = [
    `Has anyone looked at recent numbers on ${topic.subject}? Here is what I found so far: ${facts[0]}`,
    `Good question. ${facts[1]} ${facts[2] ?? ""}`.trim(),
    `From my own experience in the field: ${facts.slice(3, 5).join(" ")}`,
    `${facts.slice(5).join(" ") || "Same here."} Happy to share more if it helps.`,
  ];
  return [
    `<p class="thread-meta">Thread in <a href="/c/research">Research &amp; Data</a> · ${posts.length} replies · 1.2k views</p>`,
    ...posts.map(
      (text, i) =>
        `<div class="post" id="post-${i + 1}"><div class="post-author"><a href="/u/${user(i)}">${user(i)}</a><span class="rank">Member</span></div><div class="post-body">${p(text)}</div><div class="post-actions"><button>Like</button><button>Reply</button><button>Report</button></div></div>`,
    ),
  ].join("\n");
}

const BODIES: Record<Template, (input: ArticleInput) => string> = { news: newsBody, docs: docsBody, blog: blogBody, forum: forumBody };

export function renderArticle(input: ArticleInput): string {
  const site = SITES[input.template];
  const title = escapeHtml(input.title);
  const menu = site.menu.map((item) => `<li><a href="/${slugify(item)}">${item}</a></li>`).join("");
  const related = input.related.map((r) => `<li><a href="${r.path}">${escapeHtml(r.title)}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} | ${escapeHtml(site.name)}</title>
<meta name="description" content="${escapeHtml(input.facts[0])}">
<meta property="og:title" content="${title}">
<style>body{font-family:system-ui,sans-serif;margin:0}.cookie-banner{position:fixed;bottom:0;background:#222;color:#fff;padding:1em}main{display:flex;gap:2em}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config","G-FAKE123");</script>
</head>
<body>
<div id="cookie-banner" class="cookie-banner" role="dialog"><p>We use cookies to personalise content and ads and to analyse our traffic. By clicking “Accept all” you consent to our use of cookies.</p><button id="accept-cookies">Accept all</button><button>Manage preferences</button></div>
<header class="site-header"><a class="logo" href="/">${escapeHtml(site.name)}</a>
<nav class="main-menu"><ul>${menu}</ul></nav>
<form role="search" action="/search"><input type="search" name="q" placeholder="Search ${escapeHtml(site.name)}"><button>Search</button></form>
<a class="subscribe" href="/subscribe">Subscribe</a></header>
<main>
<article>
<h1>${title}</h1>
${BODIES[input.template](input)}
</article>
<aside class="sidebar">
<h3>Related</h3><ul>${related}</ul>
<div class="ad" data-slot="sidebar-1">Advertisement</div>
<div class="newsletter"><h3>Newsletter</h3><p>Get the week's most important stories every Friday.</p><input type="email" placeholder="you@example.com"><button>Sign up</button></div>
</aside>
</main>
<footer class="site-footer"><nav><ul><li><a href="/about">About</a></li><li><a href="/contact">Contact</a></li><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of use</a></li></ul></nav>
<p>© 2025 ${escapeHtml(site.name)}. All rights reserved.</p></footer>
<script>document.getElementById("accept-cookies").addEventListener("click",function(){document.getElementById("cookie-banner").remove();document.cookie="consent=1;path=/"});</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":${JSON.stringify(input.title)},"datePublished":"${publishedDate(input.index)}"}</script>
</body>
</html>
`;
}
