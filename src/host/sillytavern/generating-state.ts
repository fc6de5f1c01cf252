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
