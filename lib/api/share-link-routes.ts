// The share-link routes of anything shareable (a research, a Deep Research conversation): list and
// create under `…/:id/shares`, revoke at `…/:id/shares/:shareId`. Each route file names its subject.
import { requireCaller } from "../auth/caller";
import { createShareSchema } from "../auth/schema";
import { createShareLink, listShareLinks, revokeShareLink, type ShareSubject } from "../auth/share-links";
import { parseBody } from "./body";
import { route } from "./route";

type Context<P> = { params: Promise<P> };

export function shareLinkRoutes(subjectOf: (id: string) => ShareSubject) {
  return {
    /** GET: the subject's share links. */
    list: route(async (request: Request, { params }: Context<{ id: string }>) => {
      const { userId } = await requireCaller(request);
      const { id } = await params;
      return Response.json({ shareLinks: await listShareLinks({ userId, ...subjectOf(id) }) }, { headers: { "Cache-Control": "no-store" } });
    }),
    /** POST: a new link; its token is returned once. No body: a link that does not expire. */
    create: route(async (request: Request, { params }: Context<{ id: string }>) => {
      const { userId } = await requireCaller(request);
      const { id } = await params;
      const input = await parseBody(request, createShareSchema, "share", { optional: true });
      const { token, shareLink } = await createShareLink({ userId, ...subjectOf(id), expiresInDays: input.expiresInDays });
      const path = new URL(`/share/${token}`, request.url).pathname;
      return Response.json({ token, path, shareLink }, { status: 201, headers: { "Cache-Control": "no-store" } });
    }),
    /** DELETE: revoke one of the subject's links. */
    revoke: route(async (request: Request, { params }: Context<{ id: string; shareId: string }>) => {
      const { userId } = await requireCaller(request);
      const { id, shareId } = await params;
      return Response.json({ shareLink: await revokeShareLink({ userId, ...subjectOf(id), id: shareId }) });
    }),
  };
}
