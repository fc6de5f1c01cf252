import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PanelActions } from './panel';
import { panelOpen } from './state';

type PanelComponent = ComponentType<{ actions: PanelActions }>;

let loading: Promise<PanelComponent> | null = null;

/** The panel's views (timeline, profile editor, skills, storage) load as a chunk of their own on first open. */
function loadPanel(ready: () => Promise<void>): Promise<PanelComponent> {
    loading ??= Promise.all([import('./panel'), ready()]).then(([module]) => module.Panel);
    return loading;
}

/**
 * Keeps SillyTavern's page load free of the panel's code: the startup shell holds what must run at once
 * (the interceptor, commands, the icon and the Send badge); the views come on first open, with the host's
 * services (`ready`), and the panel shows as soon as both are there.
 */
export function LazyPanel({ actions, ready }: { actions: PanelActions; ready: () => Promise<void> }) {
    const [Panel, setPanel] = useState<PanelComponent | null>(null);
    const open = panelOpen.value;
    useEffect(() => {
        if (!open || Panel) return;
        let current = true;
        void loadPanel(ready).then((loaded) => current && setPanel(() => loaded));
        return () => void (current = false);
    }, [open, Panel]);
    return Panel ? <Panel actions={actions} /> : null;
}
