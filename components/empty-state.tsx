import type { IconName } from "./icons";
import { Icon } from "./icons";

export function EmptyState({ icon, title, children, action, testid }: { icon: IconName; title: string; children?: React.ReactNode; action?: React.ReactNode; testid?: string }) {
  return (
    <div data-testid={testid} className="flex flex-col items-center justify-center rounded-xl border border-dashed border-border-strong px-6 py-14 text-center">
      <div className="grid size-11 place-items-center rounded-full bg-surface-2 text-muted">
        <Icon name={icon} className="size-5" />
      </div>
      <h3 className="mt-4 text-[15px] font-semibold">{title}</h3>
      {children ? <div className="mt-1.5 max-w-sm text-sm text-muted">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
