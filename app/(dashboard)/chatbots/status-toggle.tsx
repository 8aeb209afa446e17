"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary } from "@/components/ui/classes";
import { updateChatbotAction } from "./actions";

/** Activates or deactivates a chatbot (at most one ACTIVE per sender: the server says which). */
export function StatusToggle({ uid, status }: { uid: string; status: "ACTIVE" | "INACTIVE" }) {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const next = status === "ACTIVE" ? "INACTIVE" : "ACTIVE";
  return (
    <button
      type="button"
      className={status === "ACTIVE" ? buttonSecondary : button}
      disabled={pending}
      onClick={() =>
        start(async () => {
          const r = await updateChatbotAction({ uid, chatbot: { status: next } });
          if (r.ok) toast.success(next === "ACTIVE" ? "Chatbot activated" : "Chatbot deactivated");
          else toast.error(r.message);
          router.refresh();
        })
      }
    >
      {status === "ACTIVE" ? "Deactivate" : "Activate"}
    </button>
  );
}
