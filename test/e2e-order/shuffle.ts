// The end-to-end suite in a shuffled order: Playwright runs spec files in the order of their names and
// has no shuffle of its own, so this writes, for a seed, one file per spec whose name sorts by the seed
// and which imports the spec; Playwright collects each spec's tests under that file. Tests that depend
// on what another test did first fail in some orders; the seed replays an order. Specs marked as long
// (STARTS_FIRST) come first, shuffled among themselves.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** A small seeded generator (mulberry32), so one seed gives one order on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A spec whose source has this line takes long (a journey of a minute, a package install): the shuffled
 * order starts it before the others, so that it never runs alone on one worker at the end of the suite.
 */
export const STARTS_FIRST = /^\/\/ e2e-order: starts first\b/m;

/**
 * The spec files in the seed's order (Fisher-Yates); those named in `first` come before the others, in
 * the seed's order among themselves, as the others are among themselves.
 */
export function shuffledSpecs(specs: readonly string[], seed: number, first: readonly string[] = []): string[] {
  const next = random(seed);
  const order = [...specs].sort();
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return [...order.filter((spec) => first.includes(spec)), ...order.filter((spec) => !first.includes(spec))];
}

/**
 * Writes the seed's ordered folder of specs under `.tmp/` and returns it, as Playwright's `testDir`.
 * Playwright evaluates its config in every worker process too, while others already read the folder:
 * so the folder is never emptied, each file is replaced whole (written aside, then renamed), and only
 * files the seed does not name (specs since removed) are deleted.
 */
export function shuffledTestDir(specDir: string, seed: number): string {
  const specs = readdirSync(specDir).filter((name) => name.endsWith('.spec.ts'));
  const first = specs.filter((spec) => STARTS_FIRST.test(readFileSync(join(specDir, spec), 'utf8')));
  const dir = resolve('.tmp', `e2e-shuffled-${seed}`);
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>(
    shuffledSpecs(specs, seed, first).map((spec, i) => {
      const target = relative(dir, resolve(specDir, spec)).replaceAll('\\', '/');
      return [`${String(i).padStart(3, '0')}-${spec}`, `import '${target}';\n`] as const;
    }),
  );
  for (const [name, content] of files) {
    const path = join(dir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
    const aside = `${path}.${process.pid}.tmp`;
    writeFileSync(aside, content);
    renameSync(aside, path);
  }
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.spec.ts') && !files.has(name)) rmSync(join(dir, name), { force: true });
  }
  return dir;
}
