// The heading of a dashboard page under a list: a link back to the list, the title, and
// whatever the page says under it.

import type { ReactNode } from "react";
import { link } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";

export function SubpageHeader({
  backHref,
  backLabel,
  title,
  children,
}: {
  backHref: string;
  backLabel: string;
  title: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div>
      <IntentLink href={backHref} className={link}>
        ← {backLabel}
      </IntentLink>
      <h1 className="mt-2 text-2xl font-semibold">{title}</h1>
      {children}
    </div>
  );
}
