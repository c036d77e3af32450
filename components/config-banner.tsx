// Server component: tells signed-in users which variables to set before research can run (a
// visitor who is not signed in learns nothing of the server's configuration).
import { connection } from "next/server";
import { getSessionUserId } from "@/lib/auth/caller";
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
  if (problems.length === 0) return null;
  return (
    <div role="status" data-testid="config-banner" className="border-b border-amber-300/60 bg-warn-soft dark:border-amber-500/30">
      <div className="mx-auto flex w-full max-w-6xl gap-3 px-4 py-3 text-sm sm:px-6">
        <Icon name="alert" className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
        <div className="space-y-1">
          <p className="font-medium">Research is not configured yet</p>
          <ul className="space-y-0.5 text-muted">
            {problems.map((p) => (
              <li key={p.variable + p.message}>
                <code className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.8rem] text-fg">{p.variable}</code> — {p.message}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
