/** The regular-expression worker's job as a pure function (tests run it directly). */
export function testNames(source: string, flags: string, names: readonly string[]): Uint8Array {
  const re = new RegExp(source, flags.replace(/[gy]/g, ''));
  const out = new Uint8Array(names.length);
  for (let i = 0; i < names.length; i++) out[i] = re.test(names[i]) ? 1 : 0;
  return out;
}
