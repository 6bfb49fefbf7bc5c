/**
 * The headers of a file handed out through a signed link (an export, an invoice, a printed book, a
 * presentation video): its type and name, never stored by a cache, and the link (its signature) never passed
 * on as a referrer.
 */
export function downloadHeaders<R extends { header(name: string, value: string): R }>(
  reply: R,
  file: { filename: string; size?: number },
  o: { type: string; inline?: boolean },
): R {
  reply.header('content-type', o.type);
  if (file.size !== undefined) reply.header('content-length', String(file.size));
  return reply
    .header('content-disposition', `${o.inline ? 'inline' : 'attachment'}; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('referrer-policy', 'no-referrer');
}
