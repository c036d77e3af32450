import { redirect } from "next/navigation";

export default function NewResearchAlias() {
  redirect("/");
}
