/**
 * The NVTXT importer: NVIDIA's text annotation format (Nsight VSE user guide, section 4; see
 * /work/shared/reference/nvtx-guide-and-nvtxt-format.txt and README.md next to this file).
 *
 * Decisions where the guide is silent or ambiguous:
 * - Optional arguments (italics in the guide, lost in its text version): for Marker, RangePush and
 *   RangeStartEnd the attributes CategoryId (default 0 = none), Color (none), Message (empty) and
 *   Payload (none) and the TimeBase (default: nanoseconds, reported once as info); for RangePop
 *   the TimeBase. "Optional" means the argument may be absent from the definition and from the
 *   variables; a call still gives exactly the values its definition lists. Ids, times and names
 *   are required: missing, they are an error for the line.
 * - Time bases: Qpc and Rdtsc rates come from the decode options (defaults 10 MHz and 1 GHz,
 *   reported as info); nanosecond clocks of real emitters are accepted too (timebase.ts); unknown
 *   names are read as nanoseconds with a warning.
 * - `$variable` replaces one whole value, keeping its type.
 * - Hexadecimal integers are 64-bit patterns (0xFFFFFFFFFFFFFFFF is -1), as .NET reads them.
 * - A Color integer is ARGB, either unsigned (0xFF0000FF) or as .NET's signed Color.ToArgb().
 * - Categories belong to the default domain; SetFileDisplayName names the capture.
 */
import type { Importer } from '../importer.ts';
import { NvtxtInterpreter } from './interpreter.ts';
import { forEachLine } from './lines.ts';
import { looksLikeNvtxt } from './sniff.ts';

export const nvtxtImporter: Importer = {
  id: 'nvtxt',
  label: 'NVTXT text',
  extensions: ['nvtxt'],
  sniff: looksLikeNvtxt,
  async decode(input, ctx) {
    const file = new NvtxtInterpreter(ctx.builder, ctx.options);
    await forEachLine(
      input.chunks(),
      (text, line) => file.line(text, line),
      ctx.signal,
      (line) => file.invalidText(line),
    );
    file.end();
  },
};
