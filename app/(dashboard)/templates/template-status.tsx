// A template's review status as the list and the detail show it: the status in its colour,
// and under a rejected one the reason the provider gave (rejectionReason).
const TONE: Record<string, string> = {
  APPROVED: "text-emerald-800 dark:text-emerald-300",
  PENDING: "text-amber-800 dark:text-amber-300",
  REJECTED: "text-red-800 dark:text-red-300",
  PAUSED: "text-amber-800 dark:text-amber-300",
  DISABLED: "text-red-800 dark:text-red-300",
};

const STATUS_TEXT: Record<string, string> = { PENDING: "in review" };

export function TemplateStatus({ status, rejectionReason }: { status: string; rejectionReason: string | null }) {
  return (
    <span data-testid="template-status">
      <span className={`font-semibold ${TONE[status] ?? ""}`}>{STATUS_TEXT[status] ?? status.toLowerCase()}</span>
      {status === "REJECTED" ? (
        <span className="block text-xs text-red-800 dark:text-red-300" data-testid="rejection-reason">
          Reason: {rejectionReason ?? "the provider gave none"}
        </span>
      ) : null}
    </span>
  );
}

/** The quality rating the provider reports (GREEN, YELLOW, RED), once it has one. */
export const qualityText = (quality: string | null) =>
  !quality || quality === "UNKNOWN" ? "not rated yet" : quality.toLowerCase();
