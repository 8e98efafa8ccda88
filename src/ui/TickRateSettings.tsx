/**
 * Tick rates of the NVTXT Qpc and Rdtsc time bases, which the file cannot tell. Changing one
 * reloads the NVTXT files that used that time base (the load controller listens to the store).
 */
import { useState } from 'react';
import { useViewer } from '../state/context.tsx';
import { usePopover } from './usePopover.ts';

/** Whether a capture's clock is an NVTXT Qpc or Rdtsc time base (its decoder notes the rate it used). */
export function usesTickRate(properties: Readonly<Record<string, string>>): boolean {
  return 'Qpc rate' in properties || 'Rdtsc rate' in properties;
}

export function TickRateSettings() {
  const { open, setOpen, ref } = usePopover();
  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title="Tick rates of NVTXT Qpc and Rdtsc time bases"
      >
        Tick rates
      </button>
      {open && (
        <div className="popover" role="dialog" aria-label="Tick rates">
          <p className="popover-note">
            NVTXT files with the <code>Qpc</code> or <code>Rdtsc</code> time base do not say how fast their clock
            ticks. Set the rates of the machine that wrote them; affected files reload.
          </p>
          <RateField label="Qpc" field="qpcHz" hint="QueryPerformanceFrequency; usually 10 MHz" />
          <RateField label="Rdtsc" field="rdtscHz" hint="the CPU's invariant TSC rate" />
        </div>
      )}
    </div>
  );
}

function RateField({ label, field, hint }: { label: string; field: 'qpcHz' | 'rdtscHz'; hint: string }) {
  const hz = useViewer((s) => s[field]);
  const setTickRates = useViewer((s) => s.setTickRates);
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? String(hz / 1e6);
  const value = Number(shown);
  const valid = shown.trim() !== '' && Number.isFinite(value) && value > 0;
  const commit = () => {
    if (valid && value * 1e6 !== hz) setTickRates({ [field]: value * 1e6 });
    setDraft(null);
  };
  return (
    <label className="rate-field">
      <span className="rate-label">{label}</span>
      <input
        type="number"
        min="0"
        step="any"
        value={shown}
        aria-invalid={!valid}
        aria-label={`${label} tick rate in MHz`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      <span className="rate-unit">MHz</span>
      <span className="rate-hint">{hint}</span>
    </label>
  );
}
