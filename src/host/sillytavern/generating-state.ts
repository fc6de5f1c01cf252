import { stContext } from './st-context';

/** True while SillyTavern generates (it marks the body with `data-generating`). */
export function sillyTavernGenerating(): boolean {
    return document.body.dataset.generating !== undefined;
}

/**
 * A run SillyTavern did not start itself (a fix, a foreground script run) puts SillyTavern in its generating
 * state as its own generations do: Stop shows (and stops the run through GENERATION_STOPPED), swipes hide,
 * and edits, commits from the panel and the swipe arrows wait. Returns the release, safe to call twice; it
 * holds nothing when SillyTavern is generating already (that generation owns the state).
 */
export function holdGeneratingState(): () => void {
    const context = stContext();
    if (sillyTavernGenerating() || !context.deactivateSendButtons || !context.activateSendButtons) return () => undefined;
    context.deactivateSendButtons();
    let released = false;
    return () => {
        if (released) return;
        released = true;
        context.activateSendButtons?.();
    };
}

/**
 * Resolves once SillyTavern is not generating (at once when it is not): watched on the body's attribute, no
 * polling. A keeper after a reply (issue 34) starts its dry run of the prompt only then, never inside one of
 * SillyTavern's own generations.
 */
export function untilNotGenerating(): Promise<void> {
    if (!sillyTavernGenerating()) return Promise.resolve();
    return new Promise((resolve) => {
        const observer = new MutationObserver(() => {
            if (sillyTavernGenerating()) return;
            observer.disconnect();
            resolve();
        });
        observer.observe(document.body, { attributes: true, attributeFilter: ['data-generating'] });
    });
}
