"use client";
// The header's account slot: who is signed in, Settings, and sign-out (a POST server action).
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { signOutAction } from "@/lib/auth/actions";
import { IntentLink } from "./intent-link";

const ACCOUNT_PAGES = /^\/sign-(in|up|out)\/?$/;

export function AccountMenu({ email: initialEmail }: { email?: string | null }) {
  const [email, setEmail] = useState<string | null | undefined>(initialEmail);
  // The header lives in the root layout and survives navigations, and signing in, up or out ends
  // in a client-side redirect to or from an account page. So the session is read again whenever
  // such a page is entered, left or changed — not on every navigation inside the app.
  const pathname = usePathname() ?? "/";
  const sessionKey = ACCOUNT_PAGES.test(pathname) ? pathname : "app";

  useEffect(() => {
    if (initialEmail !== undefined) return;
    let cancelled = false;
    // Not /api/auth/session: that re-issues the session cookie (see app/api/account/route.ts).
    fetch("/api/account", { cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((account: { email?: string } | null) => {
        if (!cancelled) setEmail(account?.email ?? null);
      })
      .catch(() => !cancelled && setEmail(null));
    return () => {
      cancelled = true;
    };
  }, [initialEmail, sessionKey]);

  if (email === undefined) return <div className="h-8" aria-hidden data-testid="account-menu" />;
  if (email === null) {
    return (
      <div className="flex items-center gap-3 text-sm" data-testid="account-menu">
        <IntentLink href="/sign-in" className="underline">Sign in</IntentLink>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="account-menu">
      <span className="max-w-[14rem] truncate text-muted" data-testid="account-email" title={email}>
        {email}
      </span>
      <IntentLink href="/settings" className="underline" data-testid="settings-link">Settings</IntentLink>
      <form action={signOutAction}>
        <button type="submit" className="underline" data-testid="sign-out">Sign out</button>
      </form>
    </div>
  );
}

export default AccountMenu;
