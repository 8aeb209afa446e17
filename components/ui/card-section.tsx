// A titled card: the section is labelled by its heading.
import type { ReactNode } from "react";
import { card } from "@/components/ui/classes";

export function CardSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className={card} aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
