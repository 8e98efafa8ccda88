/**
 * Messages about sharing that are not load failures: a link that cannot be fully applied, a
 * capture sent by a page that is not allowed to, a bad query parameter. One list per page.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export interface Notice {
  id: number;
  tone: 'info' | 'warning' | 'error';
  text: string;
  /** Notices of one key replace each other: the latest text, and how many came. */
  key: string;
  repeats: number;
}

export interface NoticeState {
  notices: Notice[];
  /**
   * Adds a notice; one with the same `key` (default: the text) already shown is replaced by this
   * one and counted instead, so a page sending 300 refused messages makes one notice, not 300.
   */
  notify(tone: Notice['tone'], text: string, key?: string): void;
  dismiss(id: number): void;
}

export type NoticeStore = StoreApi<NoticeState>;

export function createNoticeStore(): NoticeStore {
  let nextId = 1;
  return createStore<NoticeState>()((set) => ({
    notices: [],
    notify(tone, text, key = text) {
      set((s) => {
        const at = s.notices.findIndex((n) => n.key === key);
        if (at < 0) return { notices: [...s.notices, { id: nextId++, tone, text, key, repeats: 1 }] };
        const notices = s.notices.slice();
        notices[at] = { ...notices[at], tone, text, repeats: notices[at].repeats + 1 };
        return { notices };
      });
    },
    dismiss(id) {
      set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
    },
  }));
}

/** The page's notices (main.tsx wires sharing to it; `ShareNotices` shows it). */
export const pageNotices = createNoticeStore();
