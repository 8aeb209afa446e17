// Where an inbound message sits in its thread (docs/conversations.md "Thread order"). The
// provider's timestamps are whole seconds; messages of one second keep the order they arrive
// in by their arrival time within that second. A message processed late (a backlog, a busy
// machine) takes the last moment of its own second, never a moment of a later one: a late
// message of second 10 still sorts before every message of second 11, and taking its bare
// second instead would put it before the messages of its own second that came earlier.
export function threadTimeOf(providerAt: Date, now: number): Date {
  const second = providerAt.getTime();
  // A clock ahead of ours must not stretch the window: now, as the message is in the future.
  if (second > now) return new Date(now);
  return new Date(Math.min(now, second + 999));
}
