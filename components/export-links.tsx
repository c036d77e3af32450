// Download links for a report's exports, all served by one API path (`…/export?format=`): the
// report page passes its research's export link, the shared page its share link's. Plain links, so
// the browser downloads the file and no export code reaches the page's bundle.
import { buttonClass } from "./button";
import { Icon } from "./icons";

const FORMATS = [
  { format: "md", label: "Markdown" },
  { format: "pdf", label: "PDF" },
  { format: "docx", label: "Word" },
  { format: "tex", label: "LaTeX paper" },
] as const;

export function ExportLinks({ href, testid = "export" }: { href: string; testid?: string }) {
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Download the report">
      {FORMATS.map((f) => (
        <a key={f.format} href={`${href}?format=${f.format}`} download className={buttonClass("secondary", "sm")} data-testid={`${testid}-${f.format}`}>
          <Icon name="download" className="size-3.5" /> {f.label}
        </a>
      ))}
    </div>
  );
}
