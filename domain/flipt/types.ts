/**
 * Wire types of the Flipt v1 REST API (reference §3): the JSON the server emits and the console reads.
 * Field names are protobuf JSON names (lowerCamelCase); timestamps are RFC 3339 UTC strings.
 */
export interface Namespace {
  key: string;
  name: string;
  description: string;
  protected: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NamespaceList {
  namespaces: Namespace[];
  nextPageToken: string;
  totalCount: number;
}

/** The namespace every installation has, and the one an empty namespace key resolves to. */
export const DEFAULT_NAMESPACE = 'default';
