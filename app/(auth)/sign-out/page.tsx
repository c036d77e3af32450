import type { Metadata } from "next";
import { signOutAction } from "../../../lib/auth/actions";

export const metadata: Metadata = { title: "Sign out – Quarry" };

// Signing out changes state, so it is a POST (a server action), never a GET link.
export default function SignOutPage() {
  return (
    <form action={signOutAction} className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">Sign out of Quarry?</h1>
      <button type="submit" className="rounded-lg bg-accent px-4 py-2 text-sm font-medium text-accent-fg shadow-sm hover:brightness-110" data-testid="sign-out-confirm">
        Sign out
      </button>
    </form>
  );
}
