// The public API versions (docs/api/versions.md): every domain that shapes answers per version takes this type.
export type Version = "v2" | "v3";
export const VERSIONS: readonly Version[] = ["v2", "v3"];
