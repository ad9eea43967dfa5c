import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clickMatch, urlMatch } from '../../../../widget/core/triggers.js';

describe('URL match rules', () => {
  const url = 'https://shop.test/cart?step=2';
  it.each([
    ['exactMatch', 'https://shop.test/cart?step=2', true],
    ['exactMatch', 'https://shop.test/cart', false],
    ['contains', '/cart', true],
    ['contains', '/checkout', false],
    ['startsWith', 'https://shop.test/', true],
    ['startsWith', 'http://shop.test/', false],
    ['endsWith', 'step=2', true],
    ['endsWith', 'step=3', false],
    ['notMatch', 'https://shop.test/', true],
    ['notMatch', url, false],
    ['notContains', '/checkout', true],
    ['notContains', '/cart', false],
  ] as const)('%s %s → %s', (rule, value, expected) => {
    expect(urlMatch(url, value, rule)).toBe(expected);
  });

  it('gives undefined for any other rule', () => {
    expect(urlMatch(url, url, 'regex' as 'contains')).toBeUndefined();
    expect(urlMatch(url, url, 'constructor' as 'contains')).toBeUndefined();
  });
});

describe('click match', () => {
  let button: HTMLButtonElement;
  beforeEach(() => {
    document.body.innerHTML = '<button class="cta big" id="buy">Buy now</button>';
    button = document.querySelector('button')!;
    history.replaceState(null, '', '/shop/item');
  });
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('never matches a config with none of the three parts', () => {
    expect(clickMatch(button, {})).toBe(false);
    expect(clickMatch(button, null)).toBe(false);
  });

  it('requires the inner HTML to be equal', () => {
    expect(clickMatch(button, { innerHtml: { value: 'Buy now' } })).toBe(true);
    expect(clickMatch(button, { innerHtml: { value: 'Buy' } })).toBe(false);
  });

  it('requires every CSS selector part to match the element itself', () => {
    expect(clickMatch(button, { cssSelector: { value: '.cta' } })).toBe(true);
    expect(clickMatch(button, { cssSelector: { value: '.cta.big#buy' } })).toBe(true);
    expect(clickMatch(button, { cssSelector: { value: '.cta .big' } })).toBe(true);
    expect(clickMatch(button, { cssSelector: { value: 'button.cta' } })).toBe(true);
    expect(clickMatch(button, { cssSelector: { value: '.cta.small' } })).toBe(false);
    expect(clickMatch(button, { cssSelector: { value: '#other' } })).toBe(false);
    expect(clickMatch(button, { cssSelector: { value: '.[[' } })).toBe(false);
  });

  it('requires the URL rule to match, if given', () => {
    expect(
      clickMatch(button, { innerHtml: { value: 'Buy now' }, pageUrl: { value: '/shop/', rule: 'contains' } }),
    ).toBe(true);
    expect(
      clickMatch(button, { innerHtml: { value: 'Buy now' }, pageUrl: { value: '/blog/', rule: 'contains' } }),
    ).toBe(false);
    expect(clickMatch(button, { pageUrl: { value: '/shop/', rule: 'contains' } })).toBe(true);
    expect(clickMatch(button, { pageUrl: { value: '/shop/', rule: 'bogus' as 'contains' } })).toBe(false);
  });

  it('combines all parts', () => {
    const all = {
      innerHtml: { value: 'Buy now' },
      cssSelector: { value: '.cta' },
      pageUrl: { value: 'item', rule: 'endsWith' as const },
    };
    expect(clickMatch(button, all)).toBe(true);
    expect(clickMatch(button, { ...all, cssSelector: { value: '.nope' } })).toBe(false);
  });
});
