import { describe, expect, it } from 'vitest';
import { captureNameFromUrl, readLaunchParams } from './launchParams.ts';

const PAGE = 'https://host.example/tools/nvtxview/index.html?x=1';

describe('launch parameters', () => {
  it('reads several ?url captures in order, relative ones against the page', () => {
    const p = readLaunchParams(
      '?url=https%3A%2F%2Fdata.example%2Fruns%2Frun%25201.sqlite%3Ftoken%3Dabc&url=captures/b.json.gz&url=/top.nvtxt',
      PAGE,
    );
    expect(p.captures).toEqual([
      { url: 'https://data.example/runs/run%201.sqlite?token=abc', name: 'run 1.sqlite' },
      { url: 'https://host.example/tools/nvtxview/captures/b.json.gz', name: 'b.json.gz' },
      { url: 'https://host.example/top.nvtxt', name: 'top.nvtxt' },
    ]);
    expect(p.problems).toEqual([]);
  });

  it('refuses URLs a page cannot fetch, with a message', () => {
    const p = readLaunchParams('?url=file%3A%2F%2F%2Ftmp%2Fa.json&url=http%3A%2F%2F%5B', PAGE);
    expect(p.captures).toEqual([]);
    expect(p.problems).toEqual([
      '?url=file:///tmp/a.json: only http and https URLs can be loaded (file: cannot be fetched by a web page)',
      '?url=http://[ is not a URL',
    ]);
  });

  it('reads embed origins, reduced to their origin, and the wildcard', () => {
    const p = readLaunchParams('?embedOrigin=https%3A%2F%2Flab.example%3A8443%2Fpath&embedOrigin=*&embedOrigin=lab', PAGE);
    expect(p.embedOrigins).toEqual(['https://lab.example:8443']);
    expect(p.embedAnyOrigin).toBe(true);
    expect(p.problems).toEqual(['?embedOrigin=lab is not an origin (write it like https://example.org)']);
  });

  it('names a capture after its last path segment, else its host', () => {
    expect(captureNameFromUrl(new URL('https://a.example/x/y/trace.json/'))).toBe('trace.json');
    expect(captureNameFromUrl(new URL('https://a.example:81/'))).toBe('a.example:81');
    expect(captureNameFromUrl(new URL('https://a.example/bad%E0%A4%A'))).toBe('bad%E0%A4%A');
  });
});
