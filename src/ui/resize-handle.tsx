import { useEffect, useState } from 'preact/hooks';
import { clampPanelWidth } from '../contract/panel-settings';
import { t } from '../i18n/t';

const STEP = 20;

/**
 * The panel's left edge, dragged (mouse, touch, pen) or moved with the arrow keys to set its width. The
 * width follows the pointer while dragging (`onDrag`) and is saved once, when the drag ends (`onCommit`).
 */
export function ResizeHandle({
    panel,
    width,
    onDrag,
    onCommit,
}: {
    panel: () => HTMLElement | null;
    /** The width set (saved or being dragged), when there is one: read instead of measuring the panel on each render. */
    width?: number | null;
    onDrag(width: number): void;
    onCommit(width: number): void;
}) {
    const widthAt = (clientX: number) => clampPanelWidth(Math.min(window.innerWidth - 40, window.innerWidth - clientX));
    const current = () => panel()?.getBoundingClientRect().width ?? 0;
    // The width shown to a screen reader when none is set: observed, never measured while rendering (the panel
    // renders at every run's start and end, and a measure there forces a layout of the whole page).
    const [observed, setObserved] = useState<number | null>(null);
    useEffect(() => {
        const element = panel();
        if (!element || typeof ResizeObserver === 'undefined') return;
        const observer = new ResizeObserver(([entry]) => {
            const box = entry?.borderBoxSize?.[0];
            setObserved(Math.round(box ? box.inlineSize : (entry?.contentRect.width ?? 0)));
        });
        observer.observe(element);
        return () => observer.disconnect();
    }, []);
    const shown = width ?? observed;
    return (
        <div
            class="tavern-agent__resize"
            role="separator"
            aria-orientation="vertical"
            aria-label={t`Panel width: drag, or use the arrow keys`}
            title={t`Panel width: drag, or use the arrow keys`}
            aria-valuenow={shown === null ? undefined : Math.round(shown)}
            tabIndex={0}
            onPointerDown={(event) => {
                if (event.button !== 0) return;
                event.preventDefault();
                const handle = event.currentTarget;
                handle.setPointerCapture(event.pointerId);
                let width = current();
                const move = (e: PointerEvent) => {
                    width = widthAt(e.clientX);
                    onDrag(width);
                };
                const end = () => {
                    handle.removeEventListener('pointermove', move);
                    handle.removeEventListener('pointerup', end);
                    handle.removeEventListener('pointercancel', end);
                    onCommit(width);
                };
                handle.addEventListener('pointermove', move);
                handle.addEventListener('pointerup', end);
                handle.addEventListener('pointercancel', end);
            }}
            onKeyDown={(event) => {
                const delta = event.key === 'ArrowLeft' ? STEP : event.key === 'ArrowRight' ? -STEP : 0;
                if (!delta) return;
                event.preventDefault();
                onCommit(clampPanelWidth(Math.min(window.innerWidth - 40, current() + delta)));
            }}
        />
    );
}
