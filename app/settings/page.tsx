import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { getSessionUserId } from "@/lib/auth/caller";
import { listUserShareLinks } from "@/lib/auth/share-links";
import { listStartedResearches } from "@/lib/db/research";
import { getUserById } from "@/lib/db/users";
import { getEnv } from "@/lib/env";
import { ShareManager } from "./share-manager";
import { TokenManager } from "./token-manager";

export const metadata: Metadata = { title: "Settings – Quarry" };

export default async function SettingsPage() {
  const userId = await getSessionUserId();
  if (!userId) redirect("/sign-in?callbackUrl=/settings");
  const [user, tokens, shareLinks, researches] = await Promise.all([
    getUserById({ id: userId }),
    listApiTokens({ userId }),
    listUserShareLinks({ userId }),
    listStartedResearches({ userId, limit: 50 }),
  ]);
  const env = getEnv();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-10 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold">Settings</h1>
        <p className="text-sm text-muted">Signed in as {user?.email}</p>
      </header>
      <TokenManager tokens={tokens} defaultDays={env.API_TOKEN_DEFAULT_DAYS} maxDays={env.API_TOKEN_MAX_DAYS} />
      <ShareManager
        shareLinks={shareLinks}
        researches={researches.map((r) => ({ id: r.id, prompt: r.initialPrompt, status: r.status, createdAt: r.createdAt.toISOString() }))}
      />
    </div>
  );
}
