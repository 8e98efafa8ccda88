/**
 * Colors for the Trace Event Format's `cname` field, which names a color of the trace viewer's
 * palette instead of giving RGB. The names are the commonly used reserved ones; the ARGB values
 * are our own approximations of their meaning (good = green, bad = orange, terrible = red...).
 */
const CNAME_ARGB: Record<string, number> = {
  good: 0xff4caf50,
  bad: 0xffff9800,
  terrible: 0xffe53935,
  yellow: 0xfffdd835,
  olive: 0xff808000,
  black: 0xff212121,
  white: 0xfff5f5f5,
  grey: 0xff9e9e9e,
  generic_work: 0xff7e57c2,
  thread_state_running: 0xff43a047,
  thread_state_runnable: 0xff8bc34a,
  thread_state_iowait: 0xffff7043,
  thread_state_sleeping: 0xffeceff1,
  thread_state_uninterruptible: 0xffb71c1c,
  rail_response: 0xff1e88e5,
  rail_animation: 0xffd81b60,
  rail_idle: 0xff90a4ae,
  rail_load: 0xff3949ab,
  startup: 0xff00897b,
  cq_build_running: 0xfffff176,
  cq_build_passed: 0xff66bb6a,
  cq_build_failed: 0xffef5350,
  cq_build_abandoned: 0xffbdbdbd,
};

/** ARGB for a `cname`, or undefined when the name is not one we know. */
export function cnameColor(name: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(CNAME_ARGB, name) ? CNAME_ARGB[name] >>> 0 : undefined;
}
