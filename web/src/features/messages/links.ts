// Where a notice leads. The community's notices name a post in ref
// (docs/api.md, *Community*): likes, comments and replies, and the
// operator's review and removals, all open the post at /cdetail/{ref}.
const POST_KINDS = new Set(['post_like', 'comment', 'reply', 'post_review', 'post_removed', 'comment_removed'])

export function noticeHref(n: { kind: string; ref: string }): string | null {
  if (POST_KINDS.has(n.kind) && /^[1-9][0-9]{0,15}$/.test(n.ref)) return `/cdetail/${n.ref}`
  return null
}
