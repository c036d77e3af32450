import "next-auth";

declare module "next-auth" {
  interface Session {
    user: { id: string; email?: string | null; name?: string | null };
    /** The user's session version when this session signed in (see User.sessionVersion). */
    sessionVersion: number;
  }
}
