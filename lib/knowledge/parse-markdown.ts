// Markdown and plain text → sections. ATX headings (# …) start sections; fenced code keeps its lines
// (a "#" inside it is not a heading); blank lines separate paragraphs.
import { SectionBuilder, type ParsedSection } from "./sections";

export function parseMarkdown(source: string): { title: string | null; sections: ParsedSection[] } {
  const builder = new SectionBuilder();
  let paragraph: string[] = [];
  let fence: string | null = null;
  const endParagraph = () => {
    builder.paragraph(paragraph.join(fence ? "\n" : " "));
    paragraph = [];
  };
  for (const line of source.replace(/\r\n?/g, "\n").split("\n")) {
    const fenceMark = line.match(/^\s*(```|~~~)/)?.[1];
    if (fence) {
      if (fenceMark === fence) {
        endParagraph();
        fence = null;
      } else paragraph.push(line);
      continue;
    }
    if (fenceMark) {
      endParagraph();
      fence = fenceMark;
      continue;
    }
    const heading = line.match(/^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/);
    if (heading) {
      endParagraph();
      builder.heading(heading[1].length, heading[2]);
    } else if (line.trim() === "") endParagraph();
    else paragraph.push(line.trim());
  }
  endParagraph();
  return { title: builder.firstHeading, sections: builder.finish() };
}

/** Plain text: paragraphs, no headings (a line starting with "#" is text here). */
export function parsePlainText(source: string): { title: string | null; sections: ParsedSection[] } {
  const builder = new SectionBuilder();
  for (const block of source.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) builder.paragraph(block.replace(/\s*\n\s*/g, " "));
  return { title: null, sections: builder.finish() };
}
