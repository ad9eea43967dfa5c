import { describe, expect, it } from 'vitest';
import { escapeHtml, safeUrl, sanitizeHtml } from '../../../../widget/render/sanitize.js';
import { XSS_PAYLOADS } from './xss-corpus.js';

const DANGEROUS_ELEMENTS =
  'script,style,iframe,object,embed,svg,math,img,form,input,button,meta,link,base,template,video,audio,source,noscript,textarea,select';

function parse(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

describe('sanitizeHtml', () => {
  it('has a corpus of at least 30 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(XSS_PAYLOADS)('neutralises %s', (payload) => {
    const clean = sanitizeHtml(payload);
    const fragment = parse(clean);
    expect(fragment.querySelector(DANGEROUS_ELEMENTS)).toBeNull();
    for (const el of Array.from(fragment.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        expect(['href', 'target', 'rel']).toContain(attr.name);
        expect(attr.value).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      }
    }
    expect(clean).not.toMatch(/javascript:/i);
    // Sanitising is stable: the output survives a second pass unchanged.
    expect(sanitizeHtml(clean)).toBe(clean);
  });

  it('keeps formatting, text and safe links', () => {
    expect(sanitizeHtml('<p>Hi <strong>there</strong> <em class="x" style="color:red">you</em></p>')).toBe(
      '<p>Hi <strong>there</strong> <em>you</em></p>',
    );
    expect(sanitizeHtml('<a href="https://example.com/x" target="_blank" onclick="x()">docs</a>')).toBe(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">docs</a>',
    );
    expect(sanitizeHtml('<ul><li>a</li><li>b</li></ul>')).toBe('<ul><li>a</li><li>b</li></ul>');
  });

  it('unwraps unknown elements but drops script-like ones with their content', () => {
    expect(sanitizeHtml('<font color="red">red <b>bold</b></font>')).toBe('red <b>bold</b>');
    expect(sanitizeHtml('a<script>evil()</script>b<style>p{}</style>c')).toBe('abc');
  });

  it('keeps plain text escaped', () => {
    expect(sanitizeHtml('1 &lt; 2 &amp; "3"')).toBe('1 &lt; 2 &amp; "3"');
    expect(escapeHtml('<b onclick="x">&\'')).toBe('&#60;b onclick=&#34;x&#34;&#62;&#38;&#39;');
  });

  it('returns text without markup as given, unparsed (the same text once set as HTML)', () => {
    expect(sanitizeHtml('Rate us > 5 & tell us why')).toBe('Rate us > 5 & tell us why');
    expect(sanitizeHtml('Rate us > 5 & <b>why</b>')).toBe('Rate us &gt; 5 &amp; <b>why</b>');
  });
});

describe('safeUrl', () => {
  it('allows http(s), mailto, tel and relative URLs only', () => {
    expect(safeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeUrl('/storage/x.png')).toMatch(/^https?:\/\/.+\/storage\/x\.png$/);
    for (const bad of [
      'javascript:alert(1)',
      ' JAVASCRIPT:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
    ]) {
      expect(safeUrl(bad)).toBeUndefined();
    }
    expect(safeUrl(undefined)).toBeUndefined();
  });
});
