import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The rules of docs/architecture.md: no file of the four parts is over 600 lines; the runtimes (server,
// src, widget) import domain and never each other; inside the console, shared code (api, components, lib, stores) -> features -> app, and
// outside a feature, it is used through its index.ts, linked to through its routes.ts, or loaded lazily
// through one of its page modules.

const ROOT = join(__dirname, '../../..');
const SHARED = ['src/api', 'src/components', 'src/lib', 'src/stores'];
const SHARED_CHUNK = 'src/app/shared-chunk';

interface Import {
  file: string;
  /** Repository-relative path without extension, for relative specifiers only. */
  target: string;
  dynamic: boolean;
}

/** The folder's files, repository-relative, those of its subfolders included (TypeScript only by default). */
function sourceFiles(folder: string, name = /\.tsx?$/): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((entry) => {
    const path = `${folder}/${entry}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path, name);
    return name.test(entry) ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => ({ specifier: match[1] ?? match[2], dynamic: match[2] !== undefined }))
    .filter(({ specifier }) => specifier.startsWith('.'))
    .map(({ specifier, dynamic }) => ({
      file,
      target: normalize(join(dirname(file), specifier)).replace(/\.tsx?$/, ''),
      dynamic,
    }));
}

const featureOf = (path: string) => /^src\/features\/([^/]+)/.exec(path)?.[1];
const isIndex = (target: string) => /^src\/features\/[^/]+(\/index)?$/.test(target);
/** A feature's route patterns and the links to its pages: the shell's route table imports them on the first page. */
const isRoutes = (path: string) => /^src\/features\/[^/]+\/routes(\.ts)?$/.test(path);
const inFolder = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const files = sourceFiles('src');
const imports = files.flatMap(importsOf);
/** Modules loaded with import(), repository-relative without extension. */
const lazyModules = [...new Set(imports.filter((entry) => entry.dynamic).map((entry) => entry.target))];
const RUNTIMES = ['domain', 'server', 'src', 'widget'];
const describeImport = ({ file, target }: Import) => `${file} -> ${target}`;

describe('the four parts', () => {
  it('has no file over 600 lines: one that grows past them is split by what its parts do', () => {
    const all = RUNTIMES.flatMap((part) => sourceFiles(part, /./));
    expect(all.length).toBeGreaterThan(300);
    const lines = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;
    expect(all.filter((file) => lines(file) > 600)).toEqual([]);
  });

  it('domain imports none of the runtimes, and the runtimes never import each other', () => {
    const offending = RUNTIMES.flatMap((part) =>
      sourceFiles(part)
        .flatMap(importsOf)
        .filter((entry) => {
          const target = RUNTIMES.find((folder) => inFolder(entry.target, folder));
          return target !== undefined && target !== part && target !== 'domain';
        }),
    );
    const fromDomain = sourceFiles('domain')
      .flatMap(importsOf)
      .filter((entry) => !inFolder(entry.target, 'domain'));
    expect([...offending, ...fromDomain].map(describeImport)).toEqual([]);
  });
});

describe('console import boundaries', () => {
  it('finds the console sources and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(imports.some((entry) => entry.dynamic)).toBe(true);
  });

  it('shared code imports neither features nor the app shell (a lazily loaded one imports the shared chunk)', () => {
    const startsLazyModule = (entry: Import) =>
      entry.target === SHARED_CHUNK && lazyModules.includes(entry.file.replace(/\.tsx?$/, ''));
    const offending = imports.filter(
      (entry) =>
        SHARED.some((folder) => inFolder(entry.file, folder)) &&
        (inFolder(entry.target, 'src/features') || inFolder(entry.target, 'src/app')) &&
        !startsLazyModule(entry),
    );
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('a feature imports the app shell only for its shared chunk', () => {
    const offending = imports.filter(
      (entry) => featureOf(entry.file) && inFolder(entry.target, 'src/app') && entry.target !== SHARED_CHUNK,
    );
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('outside a feature, only its index and its routes are imported statically (its pages load lazily)', () => {
    const offending = imports.filter((entry) => {
      const target = featureOf(entry.target);
      return (
        target &&
        target !== featureOf(entry.file) &&
        !entry.dynamic &&
        !isIndex(entry.target) &&
        !isRoutes(entry.target)
      );
    });
    expect(offending.map(describeImport)).toEqual([]);
  });

  it("a feature's routes module imports shared lib code only, so that the first page stays small", () => {
    const offending = imports.filter((entry) => isRoutes(entry.file) && !inFolder(entry.target, 'src/lib'));
    expect(offending.map(describeImport)).toEqual([]);
  });

  it('every lazily loaded module starts by importing the shared chunk', () => {
    expect(lazyModules.length).toBeGreaterThan(10);
    const offending = lazyModules.filter((target) => {
      const path = files.find((file) => file.replace(/\.tsx?$/, '') === target);
      if (!path) return true;
      const first = importsOf(path)[0];
      return first?.target !== SHARED_CHUNK || first.dynamic;
    });
    expect(offending).toEqual([]);
  });
});

describe('the boundary scanner', () => {
  it('reads static, re-export, side-effect and dynamic imports', () => {
    const sample = relative(ROOT, join(ROOT, 'src/app/routes.ts'));
    const found = importsOf(sample);
    expect(found.some((entry) => entry.dynamic && entry.target === 'src/features/flags/FlagsPage')).toBe(true);
    const chunk = importsOf('src/app/shared-chunk.ts').map((entry) => entry.target);
    expect(chunk).toContain('src/features/namespaces');
    expect(importsOf('src/features/flags/FlagsPage.tsx')[0].target).toBe(SHARED_CHUNK);
  });
});
