/**
 * Checks of what docs/ARCHITECTURE.md promises: which folder may import which (every folder of
 * src/, and testkit/ and bench/ around it), no import circle between files (type-only imports
 * included), and that every path a README or a doc names exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files below a repo-relative folder whose names match `pattern`, as repo-relative paths. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(ROOT + dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path, pattern));
    else if (pattern.test(entry.name)) out.push(path);
  }
  return out;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Module specifiers of the static, side-effect and literal dynamic imports and re-exports of a source (type-only ones too). */
export function importSpecifiers(source: string): string[] {
  // Comments may quote imports; drop them (block comments, and line comments at a line's start).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) out.push(m[1]);
  return out;
}

/** What a specifier in `file` points at: a repo-relative path for relative specifiers, else the package name. */
export function importTarget(file: string, specifier: string): string {
  if (specifier.startsWith('.')) return posix.normalize(posix.join(posix.dirname(file), specifier));
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The layers of src/, lowest first: each top-level folder and the src/ folders (and packages) its
 * shipped files may import, besides itself. Test files may also import any src/ folder (to check
 * against upper layers) and testkit/, but not what `NEVER_IN_TESTS` names.
 */
export const LAYERS: Readonly<Record<string, { may: readonly string[]; packages?: readonly string[] }>> = {
  'src/format': { may: [], packages: ['d3-format'] },
  'src/payload': { may: [] },
  'src/model': { may: ['src/payload'] },
  'src/import': { may: ['src/model', 'src/payload'], packages: ['fflate', 'sql.js', '@sqlite.org/sqlite-wasm', '@sqlite.org/sqlite-wasm/sqlite3.wasm?url', 'node:fs', 'node:path', 'node:module'] },
  'src/worker': { may: ['src/import', 'src/model'] },
  'src/analysis': { may: ['src/model', 'src/payload', 'src/format'] },
  'src/export': { may: ['src/model', 'src/payload'] },
  'src/state': { may: ['src/model', 'src/analysis'], packages: ['react', 'zustand'] },
  'src/timeline': { may: ['src/model', 'src/analysis', 'src/format', 'src/state'], packages: ['react', 'd3-scale', '*.css'] },
  'src/cli': { may: ['src/import', 'src/model', 'src/payload', 'src/analysis', 'src/format'], packages: ['node:util'] },
  'src/ui': {
    may: ['src/format', 'src/payload', 'src/model', 'src/import', 'src/worker', 'src/analysis', 'src/export', 'src/state', 'src/timeline'],
    packages: ['react', 'react-dom', 'zustand', '@tanstack/react-virtual', 'd3-scale', '*.css'],
  },
};

/** Packages no test of these layers may import either: the model and the importers never see React, stores or rendering. */
const NEVER_IN_TESTS: Readonly<Record<string, readonly string[]>> = {
  'src/model': ['src/ui', 'src/timeline', 'src/state', 'react', 'react-dom', 'zustand', '@tanstack/react-virtual', '*.css'],
  'src/import': ['src/ui', 'src/timeline', 'src/state', 'react', 'react-dom', 'zustand', '@tanstack/react-virtual', '*.css'],
};

/** The top-level folders around src/ and what they may import (besides themselves). */
const AROUND: Readonly<Record<string, readonly string[]>> = {
  testkit: ['src'],
  bench: ['src', 'testkit', 'scripts'],
  e2e: ['src', 'testkit', 'scripts/chromium.mjs'],
};

/** The layer (or surrounding folder) a repo path belongs to. */
function layerOf(path: string): string | undefined {
  if (path.startsWith('src/')) return Object.keys(LAYERS).find((l) => path.startsWith(l + '/'));
  return Object.keys(AROUND).find((l) => path.startsWith(l + '/'));
}

const within = (target: string, folder: string) => target === folder || target.startsWith(folder + '/');
const matchesRule = (target: string, rule: string) => (rule.startsWith('*') ? target.endsWith(rule.slice(1)) : within(target, rule));

/** Every import of `file` its layer does not allow, as "file imports specifier (why)". */
export function boundaryViolations(file: string, source: string): string[] {
  const out: string[] = [];
  const layer = layerOf(file);
  if (file === 'src/main.tsx' || file === 'src/architecture.test.ts') return out;
  for (const specifier of importSpecifiers(source)) {
    const target = importTarget(file, specifier);
    const relative = specifier.startsWith('.');
    if (layer === undefined) {
      out.push(`${file} is in no layer of the architecture test`);
      break;
    }
    if (relative && within(target, layer) && !target.endsWith('.css')) continue;
    if (layer in AROUND) {
      if (relative && !AROUND[layer].some((rule) => within(target, rule))) out.push(`${file} imports ${specifier} (${layer}/ may import ${AROUND[layer].join(', ')})`);
      continue;
    }
    const rules = LAYERS[layer];
    const test = isTest(file);
    if (test && (NEVER_IN_TESTS[layer] ?? []).some((rule) => matchesRule(target, rule))) {
      out.push(`${file} imports ${specifier} (${layer} never imports React, stores or rendering, not even in tests)`);
      continue;
    }
    if (relative) {
      if (rules.may.some((f) => within(target, f))) continue;
      if (test && (target.startsWith('src/') || target.startsWith('testkit/'))) continue;
      if (target.endsWith('.css') && (rules.packages ?? []).includes('*.css')) continue;
      out.push(`${file} imports ${specifier} (${layer} may import ${rules.may.join(', ') || 'nothing else in src'}${test ? ', and its tests src/ and testkit/' : ''})`);
    } else if (!test && !target.startsWith('node:') && !(rules.packages ?? []).includes(target)) {
      out.push(`${file} imports ${specifier} (${layer} may import the packages ${(rules.packages ?? []).join(', ') || 'none'})`);
    } else if (!test && target.startsWith('node:') && !(rules.packages ?? []).includes(target)) {
      out.push(`${file} imports ${specifier} (Node modules only where the layer lists them: the page runs it too)`);
    }
  }
  return out;
}

/** Import circles among `graph`'s files (strongly connected components of more than one file, or a file importing itself). */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative over an explicit stack (deep import chains would overflow recursion).
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        if (component.length > 1 || edges.includes(top.node)) circles.push(component.sort());
      }
    }
  }
  return circles;
}

/** The first-level layer graph of `LAYERS` must itself be a ladder: no two layers allowed to import each other. */
function layerCircles(): string[][] {
  return importCircles(new Map(Object.entries(LAYERS).map(([layer, rules]) => [layer, [...rules.may]])));
}

const CODE_DIRS = ['src', 'testkit', 'bench', 'e2e'];

describe('import boundaries', () => {
  it('finds imports in every form and resolves them', () => {
    const source = [
      "import { a } from '../../ui/format.ts';",
      'import type {',
      '  B,',
      "} from '../state/viewerStore.ts';",
      "import './style.css';",
      "export { c } from 'react';",
      "const d = await import('zustand/vanilla');",
      "// import { e } from '../ui/old.ts';",
      "/* import { f } from '../ui/old.ts'; */",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['../../ui/format.ts', '../state/viewerStore.ts', 'react', './style.css', 'zustand/vanilla']);
    expect(importTarget('src/import/nsys/nsys.ts', '../../ui/format.ts')).toBe('src/ui/format.ts');
    expect(importTarget('src/a.ts', '@tanstack/react-virtual/x')).toBe('@tanstack/react-virtual');
  });

  it('flags what a layer does not allow and nothing else', () => {
    const source = [
      "import { x } from '../../analysis/cuda/labels.ts';",
      "import { y } from '../../model/types.ts';",
      "import 'react';",
      "import './panel.css';",
      "import { w } from '../../../testkit/writers/nvtxcWriter.ts';",
    ].join('\n');
    expect(boundaryViolations('src/import/nsys/nsys.ts', source)).toEqual([
      'src/import/nsys/nsys.ts imports ../../analysis/cuda/labels.ts (src/import may import src/model, src/payload)',
      'src/import/nsys/nsys.ts imports ../../../testkit/writers/nvtxcWriter.ts (src/import may import src/model, src/payload)',
      'src/import/nsys/nsys.ts imports react (src/import may import the packages fflate, sql.js, @sqlite.org/sqlite-wasm, @sqlite.org/sqlite-wasm/sqlite3.wasm?url, node:fs, node:path, node:module)',
      'src/import/nsys/nsys.ts imports ./panel.css (src/import may import src/model, src/payload)',
    ]);
    // Tests may check an importer against the analysis and use testkit/, never the UI.
    expect(boundaryViolations('src/import/nsys/nsys.test.ts', source)).toEqual([
      'src/import/nsys/nsys.test.ts imports react (src/import never imports React, stores or rendering, not even in tests)',
      'src/import/nsys/nsys.test.ts imports ./panel.css (src/import never imports React, stores or rendering, not even in tests)',
    ]);
    expect(boundaryViolations('src/ui/share/Panel.tsx', source)).toEqual([
      'src/ui/share/Panel.tsx imports ../../../testkit/writers/nvtxcWriter.ts (src/ui may import src/format, src/payload, src/model, src/import, src/worker, src/analysis, src/export, src/state, src/timeline)',
    ]);
    expect(boundaryViolations('testkit/gen/x.ts', "import { b } from '../../bench/lib/chromiumApp.ts';")).toEqual([
      'testkit/gen/x.ts imports ../../bench/lib/chromiumApp.ts (testkit/ may import src)',
    ]);
  });

  it('holds in every source folder', () => {
    const violations: string[] = [];
    for (const dir of CODE_DIRS) {
      for (const file of filesUnder(dir, SOURCE)) violations.push(...boundaryViolations(file, readFileSync(ROOT + file, 'utf8')));
    }
    expect(violations).toEqual([]);
  });

  it('has layers that form a ladder', () => {
    expect(layerCircles()).toEqual([]);
    // Every folder of src/ belongs to a layer.
    const folders = readdirSync(ROOT + 'src', { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `src/${e.name}`);
    expect(folders.filter((f) => !(f in LAYERS))).toEqual([]);
  });

  it('keeps the one CUDA model path (src/import/cuda/) free of any format: importers use it, never the reverse', () => {
    const formats = readdirSync(ROOT + 'src/import', { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'cuda').map((e) => `src/import/${e.name}`);
    const violations: string[] = [];
    for (const file of filesUnder('src/import/cuda', SOURCE)) {
      for (const specifier of importSpecifiers(readFileSync(ROOT + file, 'utf8'))) {
        const target = importTarget(file, specifier);
        if (formats.some((f) => within(target, f))) violations.push(`${file} imports ${specifier}`);
      }
    }
    expect(formats.length).toBeGreaterThan(3);
    expect(violations).toEqual([]);
  });
});

describe('import circles', () => {
  it('finds circles, self-imports included, and nothing in a tree', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(importCircles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(importCircles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('has none between files (type-only imports count too)', () => {
    const graph = new Map<string, string[]>();
    for (const dir of CODE_DIRS) {
      for (const file of filesUnder(dir, SOURCE)) {
        const targets = importSpecifiers(readFileSync(ROOT + file, 'utf8'))
          .filter((s) => s.startsWith('.'))
          .map((s) => importTarget(file, s));
        graph.set(file, targets);
      }
    }
    expect(graph.size).toBeGreaterThan(300);
    expect(importCircles(graph)).toEqual([]);
  });
});

describe('src/ is what ships', () => {
  it('holds only what the page (src/main.tsx) and the CLI (src/cli/main.ts) run, besides tests and READMEs', () => {
    // Workers are reached through `new URL('./x.worker.ts', import.meta.url)`.
    const reached = new Set<string>();
    const todo = ['src/main.tsx', 'src/cli/main.ts'];
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (reached.has(file) || !existsSync(ROOT + file)) continue;
      reached.add(file);
      if (!SOURCE.test(file)) continue;
      const source = readFileSync(ROOT + file, 'utf8');
      const workers = [...source.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g)].map((m) => m[1]);
      for (const specifier of [...importSpecifiers(source), ...workers]) {
        if (specifier.startsWith('.')) todo.push(importTarget(file, specifier.replace(/\?.*$/, '')));
      }
    }
    const shipped = filesUnder('src', /./).filter((f) => !isTest(f) && !f.endsWith('/README.md'));
    expect(shipped.filter((f) => !reached.has(f))).toEqual([]);
  });
});

/** Backticked spans of a Markdown text that name repo paths (a slash, or a file name with an extension). */
export function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  // Fenced code blocks hold commands and examples, not paths to check.
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
  // Code spans pair up backticks in order, so `a b`/`c` is two spans, not a span "/".
  for (const m of text.matchAll(/`([^`]*)`/g)) {
    const span = m[1];
    if (!/^[\w.@/-]+$/.test(span) || /^[./]+$/.test(span) || span.startsWith('@')) continue;
    if (span.includes('/') || /^[\w.-]+\.(ts|tsx|mts|mjs|js|json|md|c|h|css|html)$/.test(span)) out.add(span);
  }
  return [...out];
}

/** Relative link targets of a Markdown text (no URLs, no anchors). */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
}

/** The repo's top-level folders: a named path starting with one of them is a repo path from the root. */
const TOP = ['src', 'docs', 'collector', 'testkit', 'bench', 'scripts', 'e2e', 'public', 'shared'];
const FILE_NAME = /\.(ts|tsx|mts|mjs|js|json|md|c|h|css|html)$/;
/** Files a doc names that live outside this repo by design (NVTX's headers). */
const EXTERNAL = new Set(['nvToolsExt.h', 'nvToolsExtMem.h', 'nvToolsExtPayload.h', 'nvToolsExtCounters.h', 'nvToolsExtSemanticsCounters.h', 'nvToolsExtSemanticsScope.h']);

/**
 * Whether a path a Markdown file names exists. Paths under a top-level folder count from the repo
 * root; other file names (a README naming its own files, `renderers/ruler.ts`) from the Markdown
 * file's folder or the root. System paths, MIME types and API names (`nvtxMarkA/W`) are not paths.
 */
export function namedPathExists(markdownFile: string, path: string): boolean {
  // Build outputs (dist/, collector/build/) exist only after a build.
  if (path.startsWith('/') || path.startsWith('dist/') || path.startsWith('collector/build/') || EXTERNAL.has(posix.basename(path))) return true;
  const here = posix.dirname(markdownFile);
  const first = path.split('/')[0];
  if (path.includes('/') && TOP.includes(first)) {
    // ../shared/ is the read-only checkout beside the repo, named from the repo root as tests see it.
    return [path, posix.join(here, path), '../' + path].some((p) => existsSync(ROOT + p));
  }
  if (!FILE_NAME.test(path)) return true;
  if ([path, posix.join(here, path)].some((p) => existsSync(ROOT + p))) return true;
  // A README names the files of its sub-folders by their short names too.
  return !path.includes('/') && here !== '.' && filesUnder(here, /./).some((f) => posix.basename(f) === path);
}

const MARKDOWN = [
  'README.md',
  ...filesUnder('docs', /\.md$/),
  ...['src', 'testkit', 'bench', 'collector', 'e2e', 'scripts'].flatMap((d) => (existsSync(ROOT + d) ? filesUnder(d, /^README\.md$/) : [])),
];

describe('paths named in the docs', () => {
  it('reads paths out of backticks, not out of code blocks', () => {
    expect(namedPaths('`src/model/` and `scripts/nvtxview.mjs`, not `levelWindow`, `npm test`/`npm start`, `src/import/<format>/` or `README.md`')).toEqual([
      'src/model/',
      'scripts/nvtxview.mjs',
      'README.md',
    ]);
    expect(namedPaths('```sh\nnode `gone/file.ts`\n```\n`here/it.ts`')).toEqual(['here/it.ts']);
  });

  it('covers the READMEs and the docs', () => {
    expect(MARKDOWN).toContain('docs/ARCHITECTURE.md');
    expect(MARKDOWN).toContain('src/timeline/README.md');
    expect(MARKDOWN.length).toBeGreaterThan(8);
  });

  for (const file of MARKDOWN) {
    it(`${file} names only paths that exist`, () => {
      const text = readFileSync(ROOT + file, 'utf8');
      expect(namedPaths(text).filter((p) => !namedPathExists(file, p))).toEqual([]);
      expect(linkTargets(text).filter((l) => !existsSync(ROOT + posix.join(posix.dirname(file), l)))).toEqual([]);
    });
  }

  it('docs/ARCHITECTURE.md names the folders it maps', () => {
    const paths = namedPaths(readFileSync(ROOT + 'docs/ARCHITECTURE.md', 'utf8'));
    expect(paths.length).toBeGreaterThan(10);
    for (const folder of [...Object.keys(LAYERS), ...Object.keys(AROUND)]) expect(paths).toContain(`${folder}/`);
  });
});
