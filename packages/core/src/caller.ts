/** Who is acting, as resolved on the server by the transport's one auth step. */
export interface Caller {
  accountId: string;
  projectId: string;
  userId: string;
  keyId: string | null;
  /** 'agent' for writes through MCP; the spec's `source` field. */
  source: string;
}
