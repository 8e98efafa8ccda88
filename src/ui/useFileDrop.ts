/**
 * Files dropped anywhere on the page; `dragging` is true while files are dragged over it. A drop
 * inside an element marked `data-drop="compare"` (the "drop two files to compare" targets) is
 * reported as such.
 */
import { useEffect, useRef, useState } from 'react';

export type DropIntent = 'open' | 'compare';

/** The attribute of an element whose drops mean "compare these". */
export const COMPARE_DROP = { 'data-drop': 'compare' } as const;

function intentOf(target: EventTarget | null): DropIntent {
  return target instanceof Element && target.closest('[data-drop="compare"]') ? 'compare' : 'open';
}

function carriesFiles(e: DragEvent): boolean {
  return e.dataTransfer?.types.includes('Files') ?? false;
}

export function useFileDrop(onFiles: (files: File[], intent: DropIntent) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const onFilesRef = useRef(onFiles);
  onFilesRef.current = onFiles;
  useEffect(() => {
    // dragenter/dragleave fire for every child element crossed: count them to know when the drag left the page.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length > 0) onFilesRef.current(files, intentOf(e.target));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return dragging;
}
