// Labels for rules: the conditions' reads and the label/unlabel actions, through the labels
// service (docs/automation.md). Until that service exists, label actions fail with a reason.
import { ApiError } from "@/lib/core/errors";
import type { Tx } from "@/lib/db";
import type { LabelApplier, RunConversation } from "./actions";

export async function labelsOf(_tx: Tx, _c: RunConversation): Promise<{ contact: string[]; conversation: string[] }> {
  return { contact: [], conversation: [] };
}

export const applyLabels: LabelApplier = async () => {
  throw new ApiError("FEATURE_NOT_AVAILABLE", "labels are not available yet");
};
