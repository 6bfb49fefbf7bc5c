import { formatAccessCode, routes, type Memorial } from '@aandenken/contract';

export type ShareableMemorial = Pick<
  Memorial,
  'slug' | 'firstName' | 'lastName' | 'visibility' | 'accessCode'
>;

/**
 * What 'Delen' sends: the readable address, and for a private page shared by someone who can see its code
 * (an owner or editor) the code too, in one message, so the person who gets it can open the page.
 */
export function shareContent(memorial: ShareableMemorial, origin: string) {
  const name = `${memorial.firstName} ${memorial.lastName}`;
  const url = `${origin}${routes.memorialBySlug(memorial.slug)}`;
  const code =
    memorial.visibility === 'private' && memorial.accessCode ? formatAccessCode(memorial.accessCode) : null;
  return {
    title: `${name} · Aandenken`,
    url,
    /** With the link and code: the text `navigator.share` adds to the address. */
    text: code
      ? `Bekijk de gedenkpagina van ${name}. De toegangscode is ${code}.`
      : `Bekijk de gedenkpagina van ${name}.`,
    /** The whole message, for WhatsApp, e-mail and the clipboard. */
    message: code
      ? `Bekijk de gedenkpagina van ${name}: ${url} — de toegangscode is ${code}.`
      : `Bekijk de gedenkpagina van ${name}: ${url}`,
    withCode: code !== null,
  };
}

/** A phone: its own share sheet first (WhatsApp, Signal, mail …, the person's own apps). */
export function shareSheetFirst(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.share === 'function' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(pointer: coarse)').matches
  );
}

/** Opens the share sheet; a person who closes it has not failed. */
export function openShareSheet(content: ReturnType<typeof shareContent>) {
  void navigator.share({ title: content.title, text: content.text, url: content.url }).catch(() => {});
}
