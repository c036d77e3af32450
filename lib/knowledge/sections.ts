// Builds a document's sections from a stream of headings and paragraphs: each section is the text
// under one heading, labelled with the heading path ("Methods › Sampling") so that a citation can say
// where in the document a passage is.
export interface ParsedSection {
  /** 1-based page (PDF only). */
  page: number | null;
  /** The heading path above the text (Markdown, HTML, DOCX), null before the first heading. */
  section: string | null;
  text: string;
}

export class SectionBuilder {
  private readonly sections: ParsedSection[] = [];
  private readonly path: Array<{ level: number; text: string }> = [];
  private paragraphs: string[] = [];
  firstHeading: string | null = null;

  heading(level: number, text: string): void {
    const clean = text.replace(/\s+/g, " ").trim();
    if (!clean) return;
    this.flush();
    while (this.path.length > 0 && this.path[this.path.length - 1].level >= level) this.path.pop();
    this.path.push({ level, text: clean });
    this.firstHeading ??= clean;
  }

  paragraph(text: string): void {
    const clean = text.replace(/[^\S\n]+/g, " ").trim();
    if (clean) this.paragraphs.push(clean);
  }

  private flush(): void {
    if (this.paragraphs.length === 0) return;
    const section = this.path.length > 0 ? this.path.map((h) => h.text).join(" › ") : null;
    this.sections.push({ page: null, section, text: this.paragraphs.join("\n\n") });
    this.paragraphs = [];
  }

  finish(): ParsedSection[] {
    this.flush();
    return this.sections;
  }
}
