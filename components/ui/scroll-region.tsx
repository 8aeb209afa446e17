// A box that scrolls sideways when its content (a wide table) does not fit, so the page
// itself never does. Keyboard users reach it (tabIndex 0) and screen readers name it
// (a labelled section is a region): axe's `scrollable-region-focusable` rule (docs/architecture.md
// "Dashboard": every page usable at 390 px). `relative` keeps absolutely positioned
// children (the `sr-only` text of a column head) inside the box: without it they widen
// the page itself.
import type { ReactNode } from "react";

export function ScrollRegion({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard
      tabIndex={0}
      className={`relative max-w-full overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 ${className}`}
    >
      {children}
    </section>
  );
}
