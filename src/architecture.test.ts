/**
 * Checks of what docs/ARCHITECTURE.md promises: the import boundaries between the layers, and that
 * every path the document names exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Source files below a repo-relative folder, as repo-relative paths with forward slashes. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(ROOT + dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Module specifiers of the static, side-effect and literal dynamic imports and re-exports of a source. */
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

interface Boundary {
  /** Files the rule applies to (repo-relative prefix). */
  from: string;
  /** Why, for the failure message. */
  reason: string;
  /** Forbidden targets: repo-relative path prefixes (`src/...`), file endings (`*.css`) or package names. */
  forbid: readonly string[];
  /** Whether `*.test.ts` files are held to it too (tests may cross-check against upper layers). */
  tests: boolean;
}

const REACT = ['react', 'react-dom', 'zustand', '@tanstack/react-virtual'];
const RENDERING = ['src/ui/', 'src/timeline/', 'src/state/', '*.css', ...REACT];

export const BOUNDARIES: readonly Boundary[] = [
  { from: 'src/model/', reason: 'the model never imports React, stores or rendering', forbid: RENDERING, tests: true },
  { from: 'src/import/', reason: 'importers never import React, stores or rendering', forbid: RENDERING, tests: true },
  { from: 'src/model/', reason: 'the model sits below the analysis', forbid: ['src/analysis/', 'src/import/'], tests: false },
  { from: 'src/import/', reason: 'importers sit below the analysis', forbid: ['src/analysis/'], tests: false },
  {
    from: 'src/analysis/',
    reason: 'the analysis is pure: no UI, timeline, store or worker code',
    forbid: ['src/ui/', 'src/timeline/', 'src/worker/', 'src/state/viewerStore.ts', 'src/state/context.tsx', '*.css', ...REACT],
    tests: false,
  },
];

function forbids(rule: string, target: string): boolean {
  if (rule.startsWith('*')) return target.endsWith(rule.slice(1));
  return rule.startsWith('src/') ? target.startsWith(rule) : target === rule;
}

/** Every import of `file` that a boundary forbids, as "file imports specifier (reason)". */
export function boundaryViolations(file: string, source: string, boundaries: readonly Boundary[] = BOUNDARIES): string[] {
  const out: string[] = [];
  const isTest = /\.test\.tsx?$/.test(file);
  for (const specifier of importSpecifiers(source)) {
    const target = importTarget(file, specifier);
    for (const b of boundaries) {
      if (!file.startsWith(b.from) || (isTest && !b.tests)) continue;
      if (b.forbid.some((rule) => forbids(rule, target))) out.push(`${file} imports ${specifier} (${b.reason})`);
    }
  }
  return out;
}

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

  it('flags what a boundary forbids and nothing else', () => {
    const source = "import { x } from '../../analysis/cuda/labels.ts';\nimport { y } from '../../model/types.ts';\nimport 'react';\nimport './panel.css';";
    expect(boundaryViolations('src/import/nsys/nsys.ts', source)).toEqual([
      'src/import/nsys/nsys.ts imports ../../analysis/cuda/labels.ts (importers sit below the analysis)',
      'src/import/nsys/nsys.ts imports react (importers never import React, stores or rendering)',
      'src/import/nsys/nsys.ts imports ./panel.css (importers never import React, stores or rendering)',
    ]);
    // Tests may check an importer against the analysis, never against the UI.
    expect(boundaryViolations('src/import/nsys/nsys.test.ts', source)).toHaveLength(2);
    expect(boundaryViolations('src/ui/App.tsx', source)).toEqual([]);
  });

  it('holds in the source tree', () => {
    const violations: string[] = [];
    for (const dir of ['src/model', 'src/import', 'src/analysis']) {
      for (const file of sourceFiles(dir)) violations.push(...boundaryViolations(file, readFileSync(ROOT + file, 'utf8')));
    }
    expect(violations).toEqual([]);
  });
});

/** Backticked spans of a Markdown text that name repo paths (a slash, or a file name with an extension). */
export function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  // Code spans pair up backticks in order, so `a b`/`c` is two spans, not a span "/".
  for (const m of markdown.matchAll(/`([^`]*)`/g)) {
    const span = m[1];
    if (!/^[\w.@/-]+$/.test(span) || /^[./]+$/.test(span)) continue;
    if (span.includes('/') || /^[\w.-]+\.(ts|tsx|mjs|js|json|md|c|h|css|html)$/.test(span)) out.add(span);
  }
  return [...out];
}

describe('docs/ARCHITECTURE.md', () => {
  it('reads paths out of backticks', () => {
    expect(namedPaths('`src/model/` and `scripts/nvtxview.mjs`, not `levelWindow`, `npm test`/`npm start`, `src/import/<format>/` or `README.md`')).toEqual([
      'src/model/',
      'scripts/nvtxview.mjs',
      'README.md',
    ]);
  });

  const doc = readFileSync(ROOT + 'docs/ARCHITECTURE.md', 'utf8');

  it('names only paths that exist', () => {
    const paths = namedPaths(doc);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(ROOT + p))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = [...doc.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((l) => !existsSync(ROOT + posix.join('docs', l)))).toEqual([]);
  });
});
