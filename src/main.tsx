/** Composition root: one viewer store, its load controller and test hooks, and the app in it. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ViewerStoreProvider } from './state/context.tsx';
import { createViewerStore } from './state/viewerStore.ts';
import { App, DEMO_URL } from './ui/App.tsx';
import { LoadController } from './ui/loadController.ts';
import { loadPreferences, persistPreferences } from './ui/preferences.ts';
import { installSharing } from './ui/share/installSharing.ts';
import { ViewMotion } from './ui/stats/viewMotion.ts';
import { exposeTestHook, installTestHooks } from './ui/testHooks.ts';
import { LoadClient, tapeChoiceFromQuery } from './worker/load.client.ts';
import { budgetFromQuery } from './worker/modelBudget.ts';
import { RegexClient } from './worker/regex.client.ts';
import { setRegexRunner } from './analysis/nameSearch.ts';
import './ui/theme.css';
import './ui/app.css';

// User regular expressions (search bar, #q=...&qo=r links) run in a worker with a time bound,
// never on this thread: a backtracking expression must not freeze the tab.
const regexClient = new RegexClient();
setRegexRunner((source, flags, names) => regexClient.match(source, flags, names));

const store = createViewerStore(loadPreferences());
// ?memoryLimitMB=N: a smaller memory budget per capture model than the device's default.
// ?tape=always|never: decode and build files on two workers or one regardless of size and cores (tests, benchmarks).
const loadClient = new LoadClient(undefined, undefined, budgetFromQuery(window.location.search), undefined, tapeChoiceFromQuery(window.location.search), tapeChoiceFromQuery(window.location.search, 'split'));
// Test hook: how each load went (one worker or two).
exposeTestHook('loadPaths', loadClient.paths);
exposeTestHook('loadHolds', loadClient.holds);
const controller = new LoadController(store, loadClient);
persistPreferences(store);
installTestHooks(store);
// ?url= captures, the view in the URL hash, captures sent by an embedding page.
installSharing(store, controller);
// ?demo opens the bundled demo capture (npm start links to it).
if (new URLSearchParams(window.location.search).has('demo')) controller.openUrl(DEMO_URL, 'demo.nvtxc');

// A decoder worker ready before the first file comes, once the page's own start-up is done; after
// a load, once the view has been still for 2 s: its JIT warm-up takes the other core for ~0.3 s,
// and right after a load is when someone pans (docs/performance.md, "Frame time at 10M").
const WARM_AFTER_LOAD_QUIET_MS = 2000;
const viewMotion = new ViewMotion(store);
loadClient.afterLoadGate = () => viewMotion.whenQuietFor(WARM_AFTER_LOAD_QUIET_MS);
loadClient.warmWhenIdle();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ViewerStoreProvider store={store}>
      <App controller={controller} />
    </ViewerStoreProvider>
  </StrictMode>,
);
