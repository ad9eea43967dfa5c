/**
 * Allow-list HTML sanitiser for survey texts (headlines, CTA, consent and card bodies).
 * The markup is parsed into an inert <template> (no scripts run, no resources load); only the
 * formatting elements below survive, with no attributes except a safe `href`/`target` on links.
 */
const KEEP = new Set(
  'a b br p strong em i u s span div ul ol li h1 h2 h3 h4 blockquote code pre sub sup small mark hr'.split(' '),
);
/** Elements removed together with their content; any other unknown element is unwrapped. */
const DROP = new Set(
  'script style template iframe frame frameset object embed noscript noembed noframes xmp plaintext textarea select option title base link meta form input button video audio img picture source track canvas math svg applet param portal'.split(
    ' ',
  ),
);
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** The URL when it is http(s), mailto or tel (relative URLs resolve against the page), else undefined. */
export function safeUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, location.href);
    return /^(https?|mailto|tel):$/.test(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function clean(parent: ParentNode): void {
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === 3) continue;
    if (node.nodeType !== 1) {
      node.remove();
      continue;
    }
    const el = node as Element;
    const name = el.localName.toLowerCase();
    if (el.namespaceURI !== HTML_NS || DROP.has(name)) {
      el.remove();
      continue;
    }
    clean(el);
    if (!KEEP.has(name)) {
      el.replaceWith(...Array.from(el.childNodes));
      continue;
    }
    const href = name === 'a' ? safeUrl(el.getAttribute('href')) : undefined;
    const target = el.getAttribute('target');
    for (const attr of Array.from(el.attributes)) el.removeAttribute(attr.name);
    if (href) {
      el.setAttribute('href', href);
      if (target === '_blank') {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      }
    }
  }
}

export function sanitizeHtml(html: string): string {
  // no element can come of text without '<': not parsed, as a survey opens with every headline sanitised
  if (!html.includes('<')) return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  clean(template.content);
  return template.innerHTML;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
