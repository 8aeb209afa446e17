"use client";
// A next/link that prefetches its page only once the user shows intent (a pointer over it,
// keyboard focus, a touch), as Next's prefetching guide describes ("Hover-triggered prefetch",
// node_modules/next/dist/docs/01-app/02-guides/prefetching.md). Every dashboard page is
// dynamic and app/(dashboard)/loading.tsx is a loading boundary, so a plain <Link> in view
// prefetches the dashboard layout down to it: each page load made the server render that layout
// (the session, the member's role, the account) for every link in view, about 20, and made the
// browser read each answer; the measurements are in docs/dashboard.md "Navigation".
import Link from "next/link";
import { type ComponentProps, useState } from "react";

export function IntentLink({
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: Omit<ComponentProps<typeof Link>, "prefetch">) {
  const [intent, setIntent] = useState(false);
  return (
    <Link
      {...props}
      // null: Next's default prefetch, from the moment of intent on; false: none before it.
      prefetch={intent ? null : false}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
    />
  );
}
