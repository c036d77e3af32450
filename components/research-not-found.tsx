import Link from "next/link";
import { buttonClass } from "./button";
import { EmptyState } from "./empty-state";

export function ResearchNotFound() {
  return (
    <div className="mx-auto max-w-xl py-10" data-testid="research-not-found">
      <EmptyState
        icon="search"
        title="Research not found"
        action={
          <div className="flex gap-2">
            <Link href="/history" className={buttonClass("secondary", "md")}>Open history</Link>
            <Link href="/" className={buttonClass("primary", "md")}>New research</Link>
          </div>
        }
      >
        It may have been deleted, or the link is wrong.
      </EmptyState>
    </div>
  );
}
