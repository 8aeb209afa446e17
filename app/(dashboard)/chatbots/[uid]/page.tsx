import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { CardSection } from "@/components/ui/card-section";
import { card } from "@/components/ui/classes";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { toPublicChatbot } from "@/lib/domains/chatbots/serializers";
import { getChatbot } from "@/lib/domains/chatbots/service";
import { ChatbotEditor } from "../chatbot-editor";
import { StatusToggle } from "../status-toggle";
import { TestConsole } from "../test-console";

export const metadata: Metadata = { title: "Chatbot · Switchboard" };

type Props = { params: Promise<{ uid: string }> };

export default async function ChatbotPage({ params }: Props) {
  const p = await requirePermission("chatbots");
  const { uid } = await params;
  const bot = toPublicChatbot(await foundOr404(getChatbot(p, undefined, uid)));
  return (
    <div className="space-y-6">
      <SubpageHeader
        backHref={`/chatbots?sender=${encodeURIComponent(bot.senderId)}`}
        backLabel="All chatbots"
        title={bot.name}
      >
        <div className="mt-1 flex flex-wrap items-center gap-3 text-sm">
          <span>
            Sender <span className="font-mono">{bot.senderId}</span>
          </span>
          <span data-testid="chatbot-status">Status: {bot.status}</span>
          <StatusToggle uid={bot.chatbotUid} status={bot.status} />
        </div>
      </SubpageHeader>
      <CardSection id="cb-test" title="Test console">
        <TestConsole uid={bot.chatbotUid} />
      </CardSection>
      <section className={card} aria-label="Editor">
        <ChatbotEditor key={bot.updatedAt} senderPhone={bot.senderId} chatbot={bot} />
      </section>
    </div>
  );
}
