import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n/t';
import { HeightIndex, scrollToReveal, visibleRange } from './height-index';

const OVERSCAN = 8;
const ESTIMATE = 34;

interface VirtualListProps<T> {
    items: readonly T[];
    /** Changes when the list is another one (another run): heights and scroll start over. */
    listKey: string;
    /** Changes when items were added or replaced. */
    revision: number;
    itemKey(item: T): string;
    renderItem(item: T, index: number): ComponentChildren;
    label: string;
    /** Keep the end in view while new items arrive, as long as the user is at the end. */
    follow: boolean;
}

const NAVIGATION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);

/** One drawn row: measured while it is in the page, forgotten by the observer when it leaves. */
function Slot({ index, count, observer, children }: { index: number; count: number; observer: ResizeObserver | null; children: ComponentChildren }) {
    const element = useRef<HTMLLIElement>(null);
    useLayoutEffect(() => {
        const target = element.current;
        if (!target || !observer) return;
        observer.observe(target);
        return () => observer.unobserve(target);
    }, [observer]);
    return (
        <li ref={element} class="tavern-agent__slot" data-index={index} aria-posinset={index + 1} aria-setsize={count}>
            {children}
        </li>
    );
}

/**
 * A list that draws only the rows in view (plus a few), whatever its length: rows keep their natural
 * height, measured once drawn; the space of the others is two spacers. Rows are reached by keyboard with
 * the arrow keys, Home/End and Page Up/Down on the focused row.
 */
export function VirtualList<T>({ items, listKey, revision, itemKey, renderItem, label, follow }: VirtualListProps<T>) {
    const scroller = useRef<HTMLDivElement>(null);
    const index = useMemo(() => new HeightIndex(ESTIMATE), [listKey]);
    const estimated = useRef(false);
    const atEnd = useRef(true);
    const pendingFocus = useRef<number | null>(null);
    const [view, setView] = useState({ top: 0, height: 400 });
    const [, setMeasured] = useState(0);

    while (index.length < items.length) index.append();

    const observer = useMemo(
        () =>
            typeof ResizeObserver === 'undefined'
                ? null
                : new ResizeObserver((entries) => {
                      let changed = false;
                      for (const entry of entries) {
                          const element = entry.target as HTMLElement;
                          const i = Number(element.dataset.index);
                          const height = element.offsetHeight;
                          if (!Number.isInteger(i) || height === 0) continue;
                          if (!estimated.current) {
                              estimated.current = true;
                              index.setEstimate(height);
                          }
                          changed = index.set(i, height) || changed;
                      }
                      if (changed) setMeasured((n) => n + 1);
                  }),
        [index],
    );
    useEffect(() => () => observer?.disconnect(), [observer]);

    useEffect(() => {
        atEnd.current = true;
        estimated.current = false;
        if (scroller.current) scroller.current.scrollTop = 0;
    }, [listKey]);

    useEffect(() => {
        const element = scroller.current;
        if (!element || typeof ResizeObserver === 'undefined') return;
        const sizeObserver = new ResizeObserver(() => setView((v) => ({ ...v, height: element.clientHeight })));
        sizeObserver.observe(element);
        return () => sizeObserver.disconnect();
    }, []);

    const onScroll = useCallback(() => {
        const element = scroller.current;
        if (!element) return;
        atEnd.current = element.scrollTop + element.clientHeight >= element.scrollHeight - 8;
        setView({ top: element.scrollTop, height: element.clientHeight });
    }, []);

    // Following: after new rows (or new heights) the end stays in view.
    useLayoutEffect(() => {
        const element = scroller.current;
        if (!element) return;
        if (follow && atEnd.current && element.scrollTop + element.clientHeight < element.scrollHeight - 1) {
            element.scrollTop = element.scrollHeight;
            setView({ top: element.scrollTop, height: element.clientHeight });
        }
        const focus = pendingFocus.current;
        if (focus !== null) {
            const target = element.querySelector<HTMLElement>(`[data-index="${focus}"] [data-row-focus]`);
            if (target) {
                pendingFocus.current = null;
                target.focus({ preventScroll: true });
            }
        }
    });

    const focusRow = (row: number) => {
        const element = scroller.current;
        if (!element || items.length === 0) return;
        const target = Math.max(0, Math.min(items.length - 1, row));
        pendingFocus.current = target;
        const next = scrollToReveal(index, target, element.scrollTop, element.clientHeight);
        if (next !== null) element.scrollTop = next;
        atEnd.current = target === items.length - 1;
        setView({ top: element.scrollTop, height: element.clientHeight });
    };

    const onKeyDown = (event: KeyboardEvent) => {
        if (!NAVIGATION_KEYS.has(event.key)) return;
        const from = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
        // Only on the row's own toggle: keys inside an open row (text, buttons) keep their usual meaning.
        if (!from || !(event.target as HTMLElement).hasAttribute('data-row-focus')) return;
        event.preventDefault();
        const current = Number(from.dataset.index);
        const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 300) / index.estimated) - 1);
        const target = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: items.length - 1, PageDown: current + page, PageUp: current - page }[event.key]!;
        focusRow(target);
    };

    const range = visibleRange(index, view.top, view.height, OVERSCAN);
    const shown = items.slice(range.start, range.end);
    const hiddenBelow = !atEnd.current && items.length > 0;

    return (
        <div class="tavern-agent__timeline-frame" data-revision={revision}>
            <div class="tavern-agent__timeline-scroll" ref={scroller} onScroll={onScroll}>
                <ol
                    class="tavern-agent__events"
                    aria-label={label}
                    style={{ paddingTop: `${range.padTop}px`, paddingBottom: `${range.padBottom}px` }}
                    onKeyDown={onKeyDown}
                >
                    {shown.map((item, k) => (
                        <Slot key={itemKey(item)} index={range.start + k} count={items.length} observer={observer}>
                            {renderItem(item, range.start + k)}
                        </Slot>
                    ))}
                </ol>
            </div>
            {follow && hiddenBelow ? (
                <button type="button" class="menu_button tavern-agent__button tavern-agent__to-latest" onClick={() => focusRow(items.length - 1)}>
                    <span class="fa-solid fa-arrow-down" aria-hidden="true" /> {t`Latest`}
                </button>
            ) : null}
        </div>
    );
}
