// GET /api/deep-research/conversations/:id/verification – the write-up's citation verification (its latest): verdicts, support rate, repair
import { requireCaller } from "@/lib/auth/caller";
import { getConversation } from "@/lib/db/conversations";
import { verificationOfConversation } from "@/lib/db/verifications";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { toVerificationView } from "@/lib/verification/view";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  if (!(await getConversation({ id, userId }))) throw new AppError("not_found:conversation", "Conversation not found");
  const verification = await verificationOfConversation({ conversationId: id, userId });
  if (!verification) throw new AppError("not_found:verification", "This conversation's write-up has not been verified (yet)");
  return Response.json({ message_id: verification.messageId, ...toVerificationView(verification) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
