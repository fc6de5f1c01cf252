import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PanelActions } from './panel';
import { t } from '../i18n/t';
import { panelOpen } from './state';

type PanelComponent = ComponentType<{ actions: PanelActions }>;

let loading: Promise<PanelComponent> | null = null;

/** The panel's views (timeline, profile editor, skills, storage) load as a chunk of their own on first open. */
function loadPanel(ready: () => Promise<void>): Promise<PanelComponent> {
    // A load that failed (the chunk gone after the extension was updated under an open page, a network blip) is
    // not kept: the next open tries again.
    loading ??= Promise.all([import('./panel'), ready()]).then(
        ([module]) => module.Panel,
        (error: unknown) => {
            loading = null;
            throw error;
        },
    );
    return loading;
}

/**
 * Keeps SillyTavern's page load free of the panel's code: the startup shell holds what must run at once
 * (the interceptor, commands, the icon and the Send badge); the views come on first open, with the host's
 * services (`ready`), and the panel shows as soon as both are there.
 */
export function LazyPanel({ actions, ready }: { actions: PanelActions; ready: () => Promise<void> }) {
    const [Panel, setPanel] = useState<PanelComponent | null>(null);
    const [failure, setFailure] = useState<string | null>(null);
    const open = panelOpen.value;
    useEffect(() => {
        if (!open || Panel) return;
        let current = true;
        setFailure(null);
        void loadPanel(ready).then(
            (loaded) => current && setPanel(() => loaded),
            (error: unknown) => current && setFailure(error instanceof Error ? error.message : String(error)),
        );
        return () => void (current = false);
    }, [open, Panel]);
    if (Panel) return <Panel actions={actions} />;
    // Said where the panel would be, not swallowed: closing it and opening it again tries again.
    return open && failure !== null ? (
        <aside class="tavern-agent" aria-label={t`Tavern Agent`} data-testid="panel-load-failed">
            <p class="tavern-agent__error tavern-agent__load-failed" role="alert">
                {t`The panel could not load. Open it again, or reload the page if SillyTavern updated the extension.`} ({failure})
            </p>
        </aside>
    ) : null;
}
