import { describe, expect, it } from 'vitest';
import { highestMatching, parseConstraint } from '../../../server/flipt/declarative/semver.js';

const TAGS = ['v0.2.3', 'v0.2.9', 'v0.3.0', 'v1.0.0', 'v1.2.0', 'v1.2.5', 'v1.10.0', 'v2.0.0', 'v2.1.0-rc.1', 'latest'];

describe('semver ref constraints', () => {
  it.each([
    ['*', 'v2.0.0'],
    ['v1.x', 'v1.10.0'],
    ['1.2.x', 'v1.2.5'],
    ['^1.2', 'v1.10.0'],
    ['~1.2', 'v1.2.5'],
    ['^0.2.3', 'v0.2.9'],
    ['>= 1.2, < 2', 'v1.10.0'],
    ['<1', 'v0.3.0'],
    ['>1', 'v2.0.0'],
    ['=1.2.0', 'v1.2.0'],
    ['1', 'v1.10.0'],
    ['!=1.10.x, 1.x', 'v1.2.5'],
    ['>=2.1.0-rc.0', 'v2.1.0-rc.1'],
    ['>3 || <0.3', 'v0.2.9'],
    ['>3', undefined],
  ])('%s picks %s', (constraint, tag) => {
    expect(highestMatching(TAGS, constraint)).toBe(tag);
  });

  it('names the term it cannot read', () => {
    expect(() => parseConstraint('>= 1.2, banana')).toThrow('cannot read the constraint "banana"');
  });
});
