// Task ids cited in a hypothesis's Markdown ("… [lit-2-1]" or a bare lit-2-1) become links to the
// task in the plan panel (#task-lit-2-1); ids not in the plan stay text.
const TASK_ID = /(\[)?\b((?:lit|ana)-\d+-\d+)\b(\])?(?!\]?\()/g;

export const TASK_HREF_PREFIX = "#task-";

export function linkTaskCitations(markdown: string, taskIds: ReadonlySet<string>): string {
  return markdown.replace(TASK_ID, (whole, open: string | undefined, id: string, close: string | undefined) => {
    if (!taskIds.has(id)) return whole;
    // "[lit-1-2]" becomes one link; a lone bracket on one side stays as it was.
    const link = `[${id}](${TASK_HREF_PREFIX}${id})`;
    return open && close ? link : `${open ?? ""}${link}${close ?? ""}`;
  });
}

/** The task id a citation link points at, or null for any other link. */
export function citedTaskId(href: string | undefined): string | null {
  return href?.startsWith(TASK_HREF_PREFIX) ? href.slice(TASK_HREF_PREFIX.length) : null;
}
