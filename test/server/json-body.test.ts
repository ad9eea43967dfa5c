import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody } from '../../server/json-body.js';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('JSON body depth', () => {
  it('refuses one level more than the limit, objects and arrays alike, and takes the limit itself', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(nestsDeeperThan(objects, MAX_JSON_DEPTH)).toBe(true);
    expect(() => parseJsonBody(objects)).toThrow(/nested deeper than 64 levels/);
  });

  it('counts nesting, not brackets: many siblings and brackets inside strings are shallow', () => {
    const siblings = `[${Array.from({ length: 500 }, () => '{"a":[1]}').join(',')}]`;
    expect(nestsDeeperThan(siblings, MAX_JSON_DEPTH)).toBe(false);
    expect(parseJsonBody(siblings)).toHaveLength(500);
    const inText = JSON.stringify({ name: '['.repeat(200), escaped: '\\"[[[' });
    expect(nestsDeeperThan(inText, MAX_JSON_DEPTH)).toBe(false);
    // Mixed: deep arrays inside objects.
    expect(nestsDeeperThan(`{"a":${nested(MAX_JSON_DEPTH)}}`, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`, MAX_JSON_DEPTH)).toBe(false);
  });
});
