/**
 * Messages about sharing that are not load failures: a link that cannot be fully applied, a
 * capture sent by a page that is not allowed to, a bad query parameter. One list per page.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export interface Notice {
  id: number;
  tone: 'info' | 'warning' | 'error';
  text: string;
}

export interface NoticeState {
  notices: Notice[];
  /** Adds a notice unless the same text is already shown. */
  notify(tone: Notice['tone'], text: string): void;
  dismiss(id: number): void;
}

export type NoticeStore = StoreApi<NoticeState>;

export function createNoticeStore(): NoticeStore {
  let nextId = 1;
  return createStore<NoticeState>()((set) => ({
    notices: [],
    notify(tone, text) {
      set((s) => (s.notices.some((n) => n.text === text) ? s : { notices: [...s.notices, { id: nextId++, tone, text }] }));
    },
    dismiss(id) {
      set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
    },
  }));
}

/** The page's notices (main.tsx wires sharing to it; `ShareNotices` shows it). */
export const pageNotices = createNoticeStore();
