import { Component, createRef, type ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n/t';
import { endWindow, HeightIndex, rangeChanged, scrollToReveal, viewportInList, visibleRange, type VisibleRange } from './height-index';

const OVERSCAN = 8;
const ESTIMATE = 34;
/** The most frames following goes on after the run ended, while its last rows are measured and scrolled to. */
const SETTLE_FRAMES = 10;

interface VirtualListProps<T> {
    items: readonly T[];
    /** Changes when the list is another one (another run): heights and scroll start over. */
    listKey: string;
    /** Changes when items were added or replaced. */
    revision: number;
    itemKey(item: T): string;
    /** Keep it the same function while the rows' rendering does not change (a row is drawn again when it changes). */
    renderItem(item: T, index: number): ComponentChildren;
    label: string;
    /** Keep the end in view while new items arrive, as long as the user is at the end. */
    follow: boolean;
}

const NAVIGATION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);

interface SlotProps<T> {
    item: T;
    index: number;
    /** The list's length when the row is first drawn; later lengths are written by the list (see `useSetSize`). */
    count: number;
    observer: ResizeObserver | null;
    renderItem(item: T, index: number): ComponentChildren;
}

/**
 * One drawn row: measured while it is in the page, forgotten by the observer when it leaves. Drawn again only
 * when its item (an object replaced on every change, never mutated), its place or the render function
 * changed: a flush of new events, or a render for a new scroll position, renders only the rows it added or
 * replaced, not every row in view. Its `aria-setsize` (the list's length, which grows with every new row) is
 * drawn once, then written by the list itself (see `useSetSize`), so a longer list does not draw every row
 * again. (A component that skips its update rather than a kept vnode: a vnode kept across renders holds on to
 * the tree it was first drawn in, and with it every earlier render's rows.)
 */
class Slot<T> extends Component<SlotProps<T>> {
    private readonly element = createRef<HTMLLIElement>();

    override shouldComponentUpdate(next: SlotProps<T>): boolean {
        const now = this.props;
        return next.item !== now.item || next.index !== now.index || next.renderItem !== now.renderItem || next.observer !== now.observer;
    }

    override componentDidMount(): void {
        if (this.element.current) this.props.observer?.observe(this.element.current);
    }

    override componentDidUpdate(previous: SlotProps<T>): void {
        const target = this.element.current;
        if (!target || previous.observer === this.props.observer) return;
        previous.observer?.unobserve(target);
        this.props.observer?.observe(target);
    }

    override componentWillUnmount(): void {
        if (this.element.current) this.props.observer?.unobserve(this.element.current);
    }

    override render() {
        const { item, index, renderItem } = this.props;
        // `count` is left out of shouldComponentUpdate on purpose: see useSetSize.
        return (
            <li ref={this.element} class="tavern-agent__slot" data-index={index} aria-posinset={index + 1} aria-setsize={this.props.count}>
                {renderItem(item, index)}
            </li>
        );
    }
}

/**
 * Writes the list's new length on the rows already drawn when it changed (a screen reader's "n of m"); a row
 * drawn after that has it from its first render.
 */
function useSetSize(list: { current: HTMLOListElement | null }, count: number): void {
    const written = useRef(count);
    useLayoutEffect(() => {
        if (written.current === count) return;
        written.current = count;
        const size = String(count);
        for (const row of list.current?.children ?? []) if (row.getAttribute('aria-setsize') !== size) row.setAttribute('aria-setsize', size);
    });
}

/** The element that scrolls the list: the nearest ancestor that scrolls (the panel), else the page. */
function scrollParent(element: HTMLElement): HTMLElement {
    for (let node = element.parentElement; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowY;
        if (overflow === 'auto' || overflow === 'scroll') return node;
    }
    return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}

/** Where the list starts inside its scroller's content. */
function listTopIn(list: HTMLElement, scroller: HTMLElement): number {
    return list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/**
 * A list that draws only the rows in view (plus a few), whatever its length: rows keep their natural
 * height, measured once drawn; the space of the others is two spacers. It has no scroller of its own: it
 * scrolls with the panel around it (one scroll container, no box in a box), and reads the panel's scroll
 * position to know which rows are in view. Rows are reached by keyboard with the arrow keys, Home/End and
 * Page Up/Down on the focused row.
 */
export function VirtualList<T>({ items, listKey, revision, itemKey, renderItem, label, follow }: VirtualListProps<T>) {
    const list = useRef<HTMLOListElement>(null);
    const scroller = useRef<HTMLElement | null>(null);
    const index = useMemo(() => new HeightIndex(ESTIMATE), [listKey]);
    /** The index whose estimate was taken from measured rows (once per list). */
    const estimatedFor = useRef<HeightIndex | null>(null);
    const atEnd = useRef(true);
    /** The view's top relative to the list's top at the last measure: a smaller one is the user scrolling up. */
    const lastTop = useRef(0);
    const pendingFocus = useRef<number | null>(null);
    /** The list's window in view (list coordinates) and the scroller's height, at the last measure. */
    const [view, setView] = useState({ top: 0, height: 400, viewport: 400 });
    const [, setMeasured] = useState(0);
    /** The view and the range of the last render, for the height observer (which runs between renders). */
    const viewNow = useRef(view);
    const drawn = useRef<VisibleRange | null>(null);
    const following = useRef(follow);
    if (follow) following.current = true;
    /**
     * The rows to draw for a view. While the list follows its end, that is the end, where the view will be once
     * keepEnd has scrolled there after the next layout: the rows a burst of events appends are drawn in the task
     * they arrive in, where drawing them for the view as it still is would draw rows that scroll away, and the
     * ones that scroll in only in the next frame's rendering.
     */
    const rangeFor = (current: typeof view) => {
        const window = following.current && atEnd.current ? endWindow(index.total, current, current.viewport) : current;
        return visibleRange(index, window.top, window.height, OVERSCAN);
    };

    while (index.length < items.length) index.append();

    const observer = useMemo(
        () =>
            typeof ResizeObserver === 'undefined'
                ? null
                : new ResizeObserver((entries) => {
                      let changed = false;
                      const measured: Array<[number, number]> = [];
                      for (const entry of entries) {
                          const element = entry.target as HTMLElement;
                          const i = Number(element.dataset.index);
                          // The size the observer reports: reading offsetHeight here would force a layout when a
                          // render ran since (the list's own observer renders before this one is called).
                          const box = entry.borderBoxSize?.[0];
                          const height = box ? Math.round(box.blockSize) : element.offsetHeight;
                          if (Number.isInteger(i) && height > 0) measured.push([i, height]);
                      }
                      // The rows not drawn yet count at the mean height of the first rows drawn (not of one row, nor
                      // taken again after the first paint): the list's height, and the scrollbar, then stay nearly
                      // where they are while the rest are drawn.
                      if (estimatedFor.current !== index && measured.length > 0) {
                          estimatedFor.current = index;
                          index.setEstimate(Math.round(measured.reduce((sum, [, h]) => sum + h, 0) / measured.length));
                      }
                      for (const [i, height] of measured) changed = index.set(i, height) || changed;
                      // Rows drawn for the first time come in at their real height. That changes neither spacer (the
                      // rows before and after the drawn ones keep their heights), so the list is drawn again only
                      // when the new heights change which rows the view needs: most scroll frames then render once.
                      if (changed && rangeChanged(drawn.current, rangeFor(viewNow.current))) setMeasured((n) => n + 1);
                  }),
        [index],
    );
    useEffect(() => () => observer?.disconnect(), [observer]);

    /** The list's window in view, in list coordinates; also whether its end is in view. */
    const measure = useCallback(() => {
        const element = scroller.current;
        const ol = list.current;
        if (!element || !ol) return;
        const listTop = listTopIn(ol, element);
        // At the end, or left it by scrolling up. Not "left" when the list grew below the view: rows added
        // since the last follow-scroll (it runs after the next layout, see keepEnd) must not stop following.
        // Nor when what is above the list shrank (the Stop button going at the run's end): the browser's scroll
        // anchoring moves the scroller up with it, and the view stays where it was on the list.
        const topInList = element.scrollTop - listTop;
        if (element.scrollTop + element.clientHeight >= listTop + ol.offsetHeight - 8) atEnd.current = true;
        else if (topInList < lastTop.current - 1) atEnd.current = false;
        lastTop.current = topInList;
        const next = { ...viewportInList(element.scrollTop, element.clientHeight, listTop), viewport: element.clientHeight };
        setView((v) => (v.top === next.top && v.height === next.height && v.viewport === next.viewport ? v : next));
    }, []);

    useEffect(() => {
        atEnd.current = true;
    }, [listKey]);

    // When following stops (the run ended), the rows its last events added are still brought into view. Their
    // scroll comes after a layout (keepEnd), and measuring them may move the end again a frame later; a frame's
    // animation callbacks run before its layout, so following ends only once the list's height held still from
    // one frame to the next (at most SETTLE_FRAMES).
    useEffect(() => {
        if (follow) return;
        let id = 0;
        let frames = 0;
        let lastHeight = -1;
        const settle = () => {
            const height = list.current?.offsetHeight ?? 0;
            frames += 1;
            if (height === lastHeight || frames > SETTLE_FRAMES) {
                following.current = false;
                return;
            }
            lastHeight = height;
            id = requestAnimationFrame(settle);
        };
        id = requestAnimationFrame(settle);
        return () => cancelAnimationFrame(id);
    }, [follow]);
    /** Scrolls to the list's end when following and the user was there; called after layout (no forced one). */
    const keepEnd = useCallback(() => {
        const element = scroller.current;
        const ol = list.current;
        if (!element || !ol || !following.current || !atEnd.current) return;
        const listEnd = listTopIn(ol, element) + ol.offsetHeight;
        if (element.scrollTop + element.clientHeight < listEnd - 1) element.scrollTop = listEnd - element.clientHeight;
    }, []);

    useEffect(() => {
        const ol = list.current;
        if (!ol) return;
        const element = scrollParent(ol);
        scroller.current = element;
        // The page's own scroller reports scrolls on the window.
        const target: HTMLElement | Window = element === document.scrollingElement ? window : element;
        target.addEventListener('scroll', measure, { passive: true });
        const sizeObserver =
            typeof ResizeObserver === 'undefined'
                ? null
                : new ResizeObserver(() => {
                      keepEnd();
                      measure();
                  });
        sizeObserver?.observe(element);
        // Its own box too, spacers included: rows measured or added change where its end is.
        sizeObserver?.observe(ol, { box: 'border-box' });
        measure();
        return () => {
            target.removeEventListener('scroll', measure);
            sizeObserver?.disconnect();
        };
    }, [measure, keepEnd]);

    // Following: after new rows (or new heights) the end of the list stays in view. It is done where the
    // browser reports the list's new size (a ResizeObserver, after the frame's layout, before its paint):
    // there the positions are read from a layout already done, where a render's layout effect would force
    // one in the middle of applying events. The focus still moves right after the render that drew the row.
    useLayoutEffect(() => {
        const focus = pendingFocus.current;
        const ol = list.current;
        if (focus === null || !ol) return;
        const target = ol.querySelector<HTMLElement>(`[data-index="${focus}"] [data-row-focus]`);
        if (target) {
            pendingFocus.current = null;
            target.focus({ preventScroll: true });
        }
    });

    const focusRow = (row: number) => {
        const element = scroller.current;
        const ol = list.current;
        if (!element || !ol || items.length === 0) return;
        const target = Math.max(0, Math.min(items.length - 1, row));
        pendingFocus.current = target;
        const listTop = listTopIn(ol, element);
        const inView = viewportInList(element.scrollTop, element.clientHeight, listTop);
        const next = scrollToReveal(index, target, inView.top, element.clientHeight);
        if (next !== null) element.scrollTop = next + listTop;
        measure();
        atEnd.current = target === items.length - 1;
        // A row already drawn is focused now; otherwise the render that draws it does (the layout effect), and
        // this one makes sure a render comes even when the view did not move.
        const drawn = ol.querySelector<HTMLElement>(`[data-index="${target}"] [data-row-focus]`);
        if (drawn && next === null) {
            pendingFocus.current = null;
            drawn.focus({ preventScroll: true });
        } else {
            setMeasured((n) => n + 1);
        }
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

    useSetSize(list, items.length);

    const range = rangeFor(view);
    viewNow.current = view;
    drawn.current = range;
    const shown = items.slice(range.start, range.end);
    const hiddenBelow = !atEnd.current && items.length > 0;

    return (
        <div class="tavern-agent__timeline-frame" data-revision={revision}>
            <ol
                ref={list}
                class="tavern-agent__events"
                aria-label={label}
                style={{ paddingTop: `${range.padTop}px`, paddingBottom: `${range.padBottom}px` }}
                onKeyDown={onKeyDown}
            >
                {shown.map((item, k) => (
                    <Slot key={itemKey(item)} item={item} index={range.start + k} count={items.length} observer={observer} renderItem={renderItem} />
                ))}
            </ol>
            {follow && hiddenBelow ? (
                <button type="button" class="menu_button tavern-agent__button tavern-agent__to-latest" onClick={() => focusRow(items.length - 1)}>
                    <span class="fa-solid fa-arrow-down" aria-hidden="true" /> {t`Latest`}
                </button>
            ) : null}
        </div>
    );
}
