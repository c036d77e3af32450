// Server component: tells signed-in users which variables to set before research can run, and that
// the LLM server cuts long prompts when it was seen doing so (lib/ai/context-window.ts). A
// visitor who is not signed in learns nothing of the server's configuration.
import type { ReactNode } from "react";
import { connection } from "next/server";
import { getSessionUserId } from "@/lib/auth/caller";
import { promptCutAnywhere } from "@/lib/ai/context-window";
import { configProblems, type ConfigProblem } from "@/lib/env";
import { Icon } from "./icons";

export async function ConfigBanner() {
  await connection(); // read the environment at request time, not at build time
  if (!(await getSessionUserId())) return null;
  let problems: ConfigProblem[];
  try {
    problems = configProblems();
  } catch (error) {
    problems = [{ variable: "environment", message: error instanceof Error ? error.message : String(error) }];
  }
  const cut = await promptCutAnywhere();
  if (problems.length === 0 && !cut) return null;
  const code = (text: string) => <code className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.8rem] text-fg">{text}</code>;
  return (
    <>
      {problems.length > 0 && (
        <Notice testId="config-banner" title="Research is not configured yet">
          <ul className="space-y-0.5 text-muted">
            {problems.map((p) => (
              <li key={p.variable + p.message}>
                {code(p.variable)} — {p.message}
              </li>
            ))}
          </ul>
        </Notice>
      )}
      {cut && (
        <Notice testId="llm-context-notice" title="The LLM server cuts long prompts">
          <p className="text-muted">
            {`It counted ${cut.counted.toLocaleString("en")} tokens for a prompt of about ${cut.estimated.toLocaleString("en")}: what it cut (instructions included) was never read, and results suffer. Give the model a context of at least ${cut.suggested.toLocaleString("en")} tokens`}{" "}
            (Ollama: {code("OLLAMA_CONTEXT_LENGTH")} or the model&apos;s {code("num_ctx")}). This notice goes once a longer prompt is read whole.
          </p>
        </Notice>
      )}
    </>
  );
}

function Notice({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <div role="status" data-testid={testId} className="border-b border-amber-300/60 bg-warn-soft dark:border-amber-500/30">
      <div className="mx-auto flex w-full max-w-6xl gap-3 px-4 py-3 text-sm sm:px-6">
        <Icon name="alert" className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
        <div className="space-y-1">
          <p className="font-medium">{title}</p>
          {children}
        </div>
      </div>
    </div>
  );
}
