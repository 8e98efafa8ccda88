/**
 * The short name of a demangled C++ function name, as Nsight Systems offers for kernels:
 * "void at::native::(anonymous namespace)::reduce_kernel<512, 1, ...>(at::native::ReduceOp<...>)"
 * reads "reduce_kernel". Parameter list, return type, namespaces and template arguments go;
 * names that are not C++ signatures come back unchanged.
 */

const OPEN = '<([{';
const CLOSE = '>)]}';

/** Index of the bracket opening the one that closes at `end`, scanning backwards; -1 if unbalanced. */
function openingOf(text: string, end: number): number {
  let depth = 0;
  for (let i = end; i >= 0; i--) {
    const c = text[i];
    if (CLOSE.includes(c)) depth++;
    else if (OPEN.includes(c)) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

export function shortFunctionName(full: string): string {
  // Only signatures are shortened: "Memcpy HtoD" or "ampere_sgemm_128x64_tn" stay whole.
  if (!/[(<]|::/.test(full)) return full;
  let s = full.trim();
  // Trailing qualifiers after the parameter list.
  s = s.replace(/\s+(const|volatile|noexcept|&&|&)\s*$/, '');
  if (s.endsWith(')')) {
    const open = openingOf(s, s.length - 1);
    if (open > 0) s = s.slice(0, open).trimEnd();
  }
  // The last component at bracket depth 0: after the return type's space and the last '::'.
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === ' ') start = i + 1;
    else if (depth === 0 && c === ':' && s[i + 1] === ':') start = i + 2;
  }
  s = s.slice(start);
  if (s.endsWith('>')) {
    const open = openingOf(s, s.length - 1);
    if (open > 0) s = s.slice(0, open);
  }
  return s.length > 0 ? s : full;
}
