/**
 * Semantic versions and constraints, as `storage.git.ref_type: semver` uses them to pick a tag:
 * `v1.2.3` or `1.2.3` (minor and patch may be left out), constraints such as `>= 1.2, < 2`,
 * `^1.4`, `~1.2.0`, `1.x`, `*`, alternatives joined by `||`. A pre-release only satisfies a
 * constraint that names one.
 */

export interface Version {
  numbers: [number, number, number];
  prerelease: string[];
}

const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | undefined {
  const match = VERSION.exec(text);
  if (!match) return undefined;
  return {
    numbers: [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)],
    prerelease: match[4]?.split('.') ?? [],
  };
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a.numbers[i] !== b.numbers[i]) return a.numbers[i] - b.numbers[i];
  if (!a.prerelease.length || !b.prerelease.length) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    return numeric ? Number(x) - Number(y) : x < y ? -1 : 1;
  }
  return 0;
}

type Test = (version: Version) => boolean;

const TERM = /^(!=|>=|<=|>|<|=|~>|~|\^)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/;

/** A constraint as a test on versions; throws an Error naming the term it cannot read. */
export function parseConstraint(text: string): Test {
  const alternatives = text.split('||').map((group) => {
    const terms = group
      .trim()
      .replace(/(!=|>=|<=|~>|[><=~^])\s+/g, '$1')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(parseTerm);
    if (!terms.length) throw new Error(`empty constraint in "${text}"`);
    return (version: Version) => terms.every((test) => test(version));
  });
  return (version) => alternatives.some((test) => test(version));
}

function parseTerm(term: string): Test {
  const match = TERM.exec(term);
  if (!match) throw new Error(`cannot read the constraint "${term}"`);
  const [, op = '=', ...parts] = match;
  const prerelease = parts[3]?.split('.') ?? [];
  const given = parts.slice(0, 3).findIndex((part) => part === undefined || /^[xX*]$/.test(part));
  const exact = given === -1 ? 3 : given;
  const numbers = [0, 1, 2].map((i) => (i < exact ? Number(parts[i]) : 0)) as Version['numbers'];
  const floor: Version = { numbers, prerelease };
  /** The first version past the given parts: `1.2` ends before `1.3.0`, `*` never ends. */
  const next = (position: number): Version | undefined => {
    if (position < 0) return undefined;
    const bumped = numbers.map((n, i) => (i < position ? n : i === position ? n + 1 : 0)) as Version['numbers'];
    return { numbers: bumped, prerelease: ['0'] };
  };
  const within = (low: Version, high: Version | undefined): Test => {
    return (v) => compareVersions(v, low) >= 0 && (!high || compareVersions(v, high) < 0);
  };
  let test: Test;
  switch (op) {
    case '=':
      test = within(floor, exact === 3 ? next(2) : next(exact - 1));
      if (exact === 3) test = (v) => compareVersions(v, floor) === 0;
      break;
    case '!=':
      test = (v) => !within(floor, next(exact - 1))(v);
      break;
    case '>':
      test =
        exact === 3
          ? (v) => compareVersions(v, floor) > 0
          : (v) => !!next(exact - 1) && compareVersions(v, next(exact - 1)!) >= 0;
      break;
    case '>=':
      test = (v) => compareVersions(v, floor) >= 0;
      break;
    case '<':
      test = (v) => compareVersions(v, floor) < 0;
      break;
    case '<=':
      test =
        exact === 3
          ? (v) => compareVersions(v, floor) <= 0
          : within({ numbers: [0, 0, 0], prerelease: [] }, next(exact - 1));
      break;
    case '^': {
      const first = numbers.findIndex((n, i) => n !== 0 || i === exact - 1 || i === 2);
      test = within(floor, next(Math.min(first, Math.max(exact - 1, 0))));
      break;
    }
    default:
      test = within(floor, next(exact >= 2 ? 1 : exact - 1));
  }
  return (version) => (version.prerelease.length > 0 && !prerelease.length ? false : test(version));
}

/** The highest of `tags` that reads as a version satisfying `constraint`, or undefined. */
export function highestMatching(tags: string[], constraint: string): string | undefined {
  const test = parseConstraint(constraint);
  let best: { tag: string; version: Version } | undefined;
  for (const tag of tags) {
    const version = parseVersion(tag);
    if (version && test(version) && (!best || compareVersions(version, best.version) > 0)) best = { tag, version };
  }
  return best?.tag;
}
