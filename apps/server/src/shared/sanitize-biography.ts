import sanitizeHtml from 'sanitize-html';
import { biographyAllowedTags } from '@aandenken/contract';

/**
 * The biography's allow-list: text structure only. Links only to https and mailto, always with
 * rel="noopener noreferrer"; every other tag is removed (script and style with their content) and every
 * other attribute (on*, style, class) dropped.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [...biographyAllowedTags],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'template'],
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => ({
      tagName,
      attribs: attribs.href ? { href: attribs.href, rel: 'noopener noreferrer' } : {},
    }),
  },
};

export function sanitizeBiography(html: string): string {
  const clean = sanitizeHtml(html, options).trim();
  // Only empty paragraphs left: treat as no biography.
  return /^(<p>(\s|<br \/>|&nbsp;)*<\/p>\s*)*$/.test(clean) ? '' : clean;
}
