/** Keyboard and mouse controls of the timeline, for the app's shortcuts dialog (`?`). */
export const TIMELINE_SHORTCUTS: { keys: string; action: string }[] = [
  { keys: 'W / S', action: 'Zoom in / out at the mouse (hold to keep going)' },
  { keys: 'A / D', action: 'Pan left / right (hold to keep going)' },
  { keys: 'F', action: 'Zoom to fit all captures' },
  { keys: 'Z', action: 'Zoom to the selected range, or to the selected span' },
  { keys: 'Esc', action: 'Clear the selection and the span' },
  { keys: 'M', action: 'Drop a flag at the mouse (the time between flags shows under the axis)' },
  { keys: 'Wheel', action: 'Scroll the tracks' },
  { keys: 'Ctrl+wheel / pinch', action: 'Zoom in / out at the mouse' },
  { keys: 'Shift+wheel', action: 'Pan (a horizontal wheel or two-finger swipe too)' },
  { keys: 'Drag', action: 'Pan the view and scroll the tracks' },
  { keys: 'Drag on the time axis', action: 'Select a time span' },
  { keys: 'Double-click the time axis', action: 'Drop a flag there; click a flag to annotate or remove it' },
  { keys: 'Click / double-click', action: 'Select a range or mark / zoom to the range' },
  { keys: 'Right-click / Shift+F10', action: 'Menu of a range or row (Shift+F10: of the selection): zoom, copy name, events table, find or hide the name, pin, move, hide' },
  { keys: 'Drag a capture row', action: 'Shift that capture in time (several captures on unrelated clocks)' },
];
