// Styles the API reference page hands to Scalar (its `customCss` option) so the rendered
// reference passes the same axe check as every other page (e2e/other-pages.spec.ts: no
// serious or critical violation), in light and dark mode, with no
// sideways page scroll at a phone's width (390 px). Scalar's default theme and markup fail
// that check in three places, each fixed here with CSS only:
//  1. color-contrast: Scalar's secondary/tertiary text greys and HTTP-method colours are
//     below 4.5:1 on its own backgrounds. The theme variables below keep Scalar's palette
//     but darken (light mode) or lighten (dark mode) each colour to at least 4.5:1 against
//     --scalar-background-1..3.
//  2. scrollable-region-focusable: the per-tag "endpoints" card is a scroll box
//     (max-height 60vh) whose entries are not focusable, so keyboard users could not scroll
//     it. The card now shows all its entries (no inner scroll, not sticky), and long paths
//     wrap so the card never widens the page.
//  3. button-name: the code-block copy button's screen-reader label sits in a span that is
//     display:none until the block is hovered, so the button has no name. The
//     screen-reader copy of the label (already visually hidden by .sr-only) is shown always.
export const REFERENCE_CSS = `
.light-mode {
  --scalar-color-2: #545454;
  --scalar-color-3: #5c5c5c;
  --scalar-color-accent: #0061ad;
  --scalar-color-green: #04704b;
  --scalar-color-red: #b80005;
  --scalar-color-yellow: #7a5e00;
  --scalar-color-blue: #00609e;
  --scalar-color-orange: #a93a00;
  --scalar-color-purple: #5203d1;
  --scalar-color-query: #00605f;
}
.dark-mode {
  --scalar-color-2: #b4b4b4;
  --scalar-color-3: #a6a6a6;
  --scalar-color-accent: #4dc0ff;
  --scalar-color-green: #2fd571;
  --scalar-color-red: #ff6b69;
  --scalar-color-yellow: #ffc90d;
  --scalar-color-blue: #6cc4f5;
  --scalar-color-orange: #ff9d66;
  --scalar-color-purple: #c2a9fb;
  --scalar-color-query: #65d4cf;
}
.scalar-app .endpoints-card { position: static; }
.scalar-app .endpoints-card .scalar-card-content { max-height: none; overflow: visible; }
.scalar-app .endpoints { overflow: visible; }
.scalar-app .endpoints .endpoint { white-space: normal; }
.scalar-app .endpoints .endpoint-path { display: inline; min-width: 0; overflow-wrap: anywhere; }
.scalar-app .scalar-code-copy .sr-only > .hidden { display: inline; }
`;
