// GET /api/research/:id/verification – the report's citation verification: verdicts, support rate, repair
import { requireCaller } from "@/lib/auth/caller";
import { researchExists } from "@/lib/db/research";
import { verificationOfResearch } from "@/lib/db/verifications";
import { AppError } from "@/lib/errors";
import { otherMethods, route } from "@/lib/http";
import { toVerificationView } from "@/lib/verification/view";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  if (!(await researchExists({ id, userId }))) throw new AppError("not_found:research", "Research not found");
  const verification = await verificationOfResearch({ researchId: id, userId });
  if (!verification) throw new AppError("not_found:verification", "This research's report has not been verified (yet)");
  return Response.json(toVerificationView(verification));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
