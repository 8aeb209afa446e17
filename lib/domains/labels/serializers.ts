// The public shape of a label (lib/api/routes/labels.ts, the dashboard's labels page).

import type { PublicLabel } from "./schemas";
import type { LabelRow } from "./service";

export const toPublicLabel = (l: LabelRow): PublicLabel => ({
  labelUid: l.id,
  name: l.name,
  color: l.color,
  description: l.description,
  createdAt: l.createdAt.toISOString(),
  updatedAt: l.updatedAt.toISOString(),
});
