"use client";
import { useTheme, type ThemeChoice } from "./theme";
import { Icon } from "./icons";

const OPTIONS: { value: ThemeChoice; label: string; icon: "sun" | "moon" | "monitor" }[] = [
  { value: "light", label: "Light theme", icon: "sun" },
  { value: "dark", label: "Dark theme", icon: "moon" },
  { value: "system", label: "System theme", icon: "monitor" },
];

export function ThemeToggle() {
  const { choice, setChoice } = useTheme();
  const current = OPTIONS.find((o) => o.value === choice) ?? OPTIONS[2];
  const next = OPTIONS[(OPTIONS.indexOf(current) + 1) % OPTIONS.length];
  return (
    <>
    {/* Phones: one button that cycles light → dark → system. */}
    <button
      type="button"
      onClick={() => setChoice(next.value)}
      aria-label={`${current.label} (switch to ${next.label.toLowerCase()})`}
      title={current.label}
      data-testid="theme-cycle"
      className="grid size-8 place-items-center rounded-lg border border-border bg-surface text-muted hover:text-fg sm:hidden"
    >
      <Icon name={current.icon} className="size-4" />
    </button>
    <div role="radiogroup" aria-label="Theme" className="hidden items-center rounded-lg border border-border bg-surface p-0.5 sm:flex" data-testid="theme-toggle">
      {OPTIONS.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={choice === o.value}
          aria-label={o.label}
          title={o.label}
          data-testid={`theme-${o.value}`}
          onClick={() => setChoice(o.value)}
          className={`grid size-7 place-items-center rounded-md transition-colors ${
            choice === o.value ? "bg-surface-2 text-fg" : "text-subtle hover:text-fg"
          }`}
        >
          <Icon name={o.icon} className="size-4" />
        </button>
      ))}
    </div>
    </>
  );
}
