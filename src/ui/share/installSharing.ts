/**
 * Wires sharing into the page: `?url=` captures start downloading, the URL hash follows the view
 * (and a link's hash is applied once its captures are in), and embedders may send captures by
 * postMessage. Problems show as page notices.
 */
import type { ViewerStore } from '../../state/viewerStore.ts';
import type { LoadController } from '../loadController.ts';
import { installEmbedding, type EmbedWindow } from './embed.ts';
import { HashSync, windowHistoryHost } from './hashSync.ts';
import { readLaunchParams } from './launchParams.ts';
import { pageNotices, type NoticeStore } from './notices.ts';

/** Returns the uninstaller. */
export function installSharing(
  store: ViewerStore,
  controller: LoadController,
  notices: NoticeStore = pageNotices,
  win: Window = window,
): () => void {
  const notify = (tone: 'warning' | 'error', text: string, key?: string) => notices.getState().notify(tone, text, key);
  const params = readLaunchParams(win.location.search, win.location.href);
  for (const problem of params.problems) notify('warning', problem);
  // Before the downloads start, so that the link's hash waits for them instead of being rewritten.
  const sync = new HashSync(store, windowHistoryHost(win), { onNotice: (text) => notify('warning', text) });
  for (const source of params.captures) void controller.openRemote(source);
  const policy = { pageOrigin: win.location.origin, allowed: params.embedOrigins, any: params.embedAnyOrigin };
  const uninstallEmbedding = installEmbedding(win as unknown as EmbedWindow, controller, policy, notify);
  const flush = () => sync.flush();
  win.addEventListener('pagehide', flush);
  return () => {
    win.removeEventListener('pagehide', flush);
    uninstallEmbedding();
    sync.dispose();
  };
}
