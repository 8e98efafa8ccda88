/** The sharing notices under the header (links that could not be applied, rejected embedders). */
import { useStore } from 'zustand';
import { pageNotices, type NoticeStore } from './notices.ts';
import './share.css';

export function ShareNotices({ notices = pageNotices }: { notices?: NoticeStore }) {
  const list = useStore(notices, (s) => s.notices);
  const dismiss = useStore(notices, (s) => s.dismiss);
  if (list.length === 0) return null;
  return (
    <div className="share-notices">
      {list.map((n) => (
        <div key={n.id} className={`share-notice tone-${n.tone}`} role={n.tone === 'info' ? 'status' : 'alert'} data-testid="share-notice">
          <span className="share-notice-text">
            {n.text}
            {n.repeats > 1 && <span className="share-notice-repeats"> ({n.repeats.toLocaleString('en-US')} times)</span>}
          </span>
          <button type="button" className="button small" onClick={() => dismiss(n.id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
