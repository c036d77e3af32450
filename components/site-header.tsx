"use client";
import { usePathname } from "next/navigation";
import { Icon, Logo } from "./icons";
import { AccountMenu } from "./account-menu";
import { IntentLink } from "./intent-link";
import { ThemeToggle } from "./theme-toggle";

const NAV = [
  { href: "/", label: "New research", icon: "plus" as const, testid: "nav-new", match: (p: string) => p === "/" || p === "/research/new" },
  { href: "/deep-research/new", label: "New deep research", icon: "sparkles" as const, testid: "nav-new-deep", match: (p: string) => p.startsWith("/deep-research") },
  { href: "/answer", label: "Quick answer", icon: "search" as const, testid: "nav-answer", match: (p: string) => p.startsWith("/answer") },
  { href: "/collections", label: "Documents", icon: "file" as const, testid: "nav-collections", match: (p: string) => p.startsWith("/collections") },
  { href: "/history", label: "History", icon: "history" as const, testid: "nav-history", match: (p: string) => p.startsWith("/history") },
];

export function SiteHeader() {
  const pathname = usePathname() ?? "/";
  return (
    <header className="sticky top-0 z-30 border-b border-border bg-bg/85 backdrop-blur supports-[backdrop-filter]:bg-bg/70">
      <div className="mx-auto flex h-14 w-full max-w-6xl items-center gap-2 px-4 sm:gap-4 sm:px-6">
        <IntentLink href="/" className="flex items-center gap-2 rounded-md font-semibold tracking-tight" aria-label="Quarry home">
          <Logo className="size-7" />
          <span className="hidden text-[15px] min-[400px]:inline">Quarry</span>
        </IntentLink>
        <nav aria-label="Main" className="ml-1 flex items-center gap-0.5 sm:ml-3 sm:gap-1">
          {NAV.map((item) => {
            const active = item.match(pathname);
            return (
              <IntentLink
                key={item.href}
                href={item.href}
                data-testid={item.testid}
                title={item.label}
                aria-current={active ? "page" : undefined}
                className={`flex items-center gap-1.5 rounded-md px-1.5 py-1.5 text-sm sm:px-2.5 font-medium transition-colors ${
                  active ? "bg-surface-2 text-fg" : "text-muted hover:bg-surface-2/60 hover:text-fg"
                }`}
              >
                <Icon name={item.icon} className="size-4" />
                <span className="sr-only sm:not-sr-only">{item.label}</span>
              </IntentLink>
            );
          })}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          {/* The account menu (components/account-menu.tsx, owned by the auth feature). On phones
              the email is hidden so that the header fits. */}
          <div id="account-slot" data-slot="account" className="flex items-center whitespace-nowrap [&_[data-testid=account-email]]:hidden md:[&_[data-testid=account-email]]:inline">
            <AccountMenu />
          </div>
        </div>
      </div>
    </header>
  );
}
