// The answer agent's steps as they arrive: what it searched, what it read, what it thought.
import type { Trackers } from "@/lib/answer/events";
import { Icon, type IconName } from "./icons";

const LABEL: Record<string, { text: string; icon: IconName }> = {
  search: { text: "Searched", icon: "search" },
  visit: { text: "Read", icon: "file" },
  reflect: { text: "New questions", icon: "sparkles" },
  answer: { text: "Answered", icon: "check" },
};

export function AnswerSteps({ steps }: { steps: Trackers[] }) {
  return (
    <ol className="space-y-2" data-testid="answer-steps">
      {steps.map((t) => {
        const a = t.actionState;
        const label = LABEL[a.action] ?? LABEL.answer;
        const items = a.searchQuery ?? a.URLTargets ?? a.questionsToAnswer ?? [];
        return (
          <li key={t.step} data-testid="answer-step" data-action={a.action} className="rounded-lg border border-border bg-surface px-3 py-2 text-sm">
            <div className="flex items-center gap-2 font-medium">
              <Icon name={label.icon} className="size-4 text-muted" />
              <span>
                {t.step}. {label.text}
              </span>
              <span className="ml-auto text-xs text-muted">{t.tokenUsage.toLocaleString()} tokens</span>
            </div>
            <p className="mt-1 text-muted" data-testid="answer-step-think">
              {a.think}
            </p>
            {items.length > 0 ? (
              <ul className="mt-1 list-disc space-y-0.5 pl-5 text-[13px]">
                {items.map((item) => (
                  <li key={item} className="break-all">
                    {item}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
