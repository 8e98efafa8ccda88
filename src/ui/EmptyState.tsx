/** What the main area shows before any capture is loaded: a drop target that says what it accepts. */
import { FORMAT_LIST } from './formatList.ts';
import { COMPARE_DROP } from './useFileDrop.ts';

export interface EmptyStateProps {
  onOpen(): void;
  /** Picks files to compare (the first is A, the baseline; the second B). */
  onOpenToCompare(): void;
  onOpenDemo(): void;
  /** A shared link's files (src/ui/share/linkedFiles.ts): the page asks for them by name. */
  linkFiles?: readonly string[];
}

export function EmptyState({ onOpen, onOpenToCompare, onOpenDemo, linkFiles = [] }: EmptyStateProps) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="drop-target">
        <div className="drop-icon" aria-hidden="true" />
        {linkFiles.length > 0 ? (
          <>
            <h1>
              Drop {linkFiles.length === 1 ? 'the file' : `the ${linkFiles.length} files`} of this link
            </h1>
            <p className="link-files" data-testid="link-files">
              This link shows a view of{' '}
              {linkFiles.map((name, i) => (
                <span key={name}>
                  {i > 0 && (i === linkFiles.length - 1 ? ' and ' : ', ')}
                  <code>{name}</code>
                </span>
              ))}
              . A link carries the view, not the files: drop {linkFiles.length === 1 ? 'that file' : 'those files'} here (or open{' '}
              {linkFiles.length === 1 ? 'it' : 'them'}) and the view, selection and filters of the link are applied.
            </p>
          </>
        ) : (
          <h1>Drop NVTX captures here</h1>
        )}
        <p className="muted">
          Drop one or more files anywhere on the page, or open them. Files are decoded in your browser and never
          leave this machine.
        </p>
        <div className="empty-actions">
          <button type="button" className="button primary" onClick={onOpen}>
            Open files…
          </button>
          <button type="button" className="button" onClick={onOpenDemo}>
            Open demo capture
          </button>
        </div>
        {linkFiles.length === 0 && (
          <div className="compare-drop" {...COMPARE_DROP} data-testid="compare-drop">
            <strong>Compare two runs:</strong> drop two captures here (the first is the baseline A, the second the
            candidate B) to see what got slower, where, beyond the runs’ noise.{' '}
            <button type="button" className="link" onClick={onOpenToCompare}>
              Pick two files…
            </button>
          </div>
        )}
        <p className="format-note">Supported formats, recognised by their content (gzip-compressed too):</p>
        <table className="format-table">
          <tbody>
            {FORMAT_LIST.map((imp) => (
              <tr key={imp.id}>
                <th scope="row">{imp.label}</th>
                <td>{imp.extensions.map((e) => `.${e}`).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
