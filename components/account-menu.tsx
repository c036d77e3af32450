"use client";
// The header's account slot: who is signed in, Settings, and sign-out (a POST server action).
import Link from "next/link";
import { useEffect, useState } from "react";
import { signOutAction } from "@/app/(auth)/actions";

export function AccountMenu({ email: initialEmail }: { email?: string | null }) {
  const [email, setEmail] = useState<string | null | undefined>(initialEmail);

  useEffect(() => {
    if (initialEmail !== undefined) return;
    let cancelled = false;
    fetch("/api/auth/session", { cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((session: { user?: { email?: string } } | null) => {
        if (!cancelled) setEmail(session?.user?.email ?? null);
      })
      .catch(() => !cancelled && setEmail(null));
    return () => {
      cancelled = true;
    };
  }, [initialEmail]);

  if (email === undefined) return <div className="h-8" aria-hidden data-testid="account-menu" />;
  if (email === null) {
    return (
      <div className="flex items-center gap-3 text-sm" data-testid="account-menu">
        <Link href="/sign-in" className="underline">Sign in</Link>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="account-menu">
      <span className="max-w-[14rem] truncate text-muted" data-testid="account-email" title={email}>
        {email}
      </span>
      <Link href="/settings" className="underline" data-testid="settings-link">Settings</Link>
      <form action={signOutAction}>
        <button type="submit" className="underline" data-testid="sign-out">Sign out</button>
      </form>
    </div>
  );
}

export default AccountMenu;
