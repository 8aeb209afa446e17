// In-process wake-up: the callback processor tells a delivery worker living in the same
// process that deliveries were queued, so it need not wait for its next poll. A worker
// lists `onDeliveriesQueued` among its wake sources (lib/core/worker-loop.ts).

type Listener = () => void;
const listeners = new Set<Listener>();

export function onDeliveriesQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function deliveriesQueued(): void {
  for (const listener of listeners) listener();
}
