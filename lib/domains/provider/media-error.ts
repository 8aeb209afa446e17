// A download of an inbound file that failed (docs/media.md "Inbound media"): permanent when
// another attempt cannot succeed (the provider does not know the id, or it expired), else
// retried by the media worker with backoff.
export class ProviderMediaError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "ProviderMediaError";
  }
}
