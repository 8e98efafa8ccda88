/**
 * What the page's query string asks for (pure): `?url=` captures to download (several allowed, in
 * order) and `?embedOrigin=` origins allowed to send captures by postMessage.
 */
import type { RemoteSource } from '../loadController.ts';

export interface LaunchParams {
  captures: RemoteSource[];
  /** Origins allowed to send captures; the page's own origin is always allowed. */
  embedOrigins: string[];
  /** `?embedOrigin=*`: any origin may send captures. */
  embedAnyOrigin: boolean;
  /** Parameters that could not be used, as messages for the page. */
  problems: string[];
}

/** The name a downloaded capture is shown and linked under: the last path segment, else the host. */
export function captureNameFromUrl(url: URL): string {
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  if (last) {
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return url.host || url.href;
}

/** `https://example.org` from a URL or origin text, or undefined when it has no usable origin. */
function originOf(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function readLaunchParams(search: string, pageUrl: string): LaunchParams {
  const params = new URLSearchParams(search);
  const out: LaunchParams = { captures: [], embedOrigins: [], embedAnyOrigin: false, problems: [] };
  for (const raw of params.getAll('url')) {
    let url: URL;
    try {
      url = new URL(raw, pageUrl);
    } catch {
      out.problems.push(`?url=${raw} is not a URL`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      out.problems.push(`?url=${raw}: only http and https URLs can be loaded (${url.protocol} cannot be fetched by a web page)`);
      continue;
    }
    out.captures.push({ url: url.href, name: captureNameFromUrl(url) });
  }
  for (const raw of params.getAll('embedOrigin')) {
    if (raw === '*') {
      out.embedAnyOrigin = true;
      continue;
    }
    const origin = originOf(raw);
    if (origin) out.embedOrigins.push(origin);
    else out.problems.push(`?embedOrigin=${raw} is not an origin (write it like https://example.org)`);
  }
  return out;
}
