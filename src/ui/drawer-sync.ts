/**
 * The panel as one of SillyTavern's right-hand drawers. SillyTavern's drawers close each other: opening one
 * (script.js `doNavbarIconClick`) closes every `.openDrawer:not(.pinnedOpen)` and flips every
 * `.openIcon:not(.drawerPinnedOpen)` to `closedIcon`, and a click outside an open drawer does the same.
 * Our top-bar icon carries `openIcon` while the panel is open, so SillyTavern flips it too: we watch that
 * flip and close the panel. Opening the panel closes SillyTavern's open drawers the same way. A pinned
 * drawer (the character list pinned open) stays where it is; the panel opens over it.
 */

/** Closes SillyTavern's unpinned open drawers, as opening one of its own drawers does. */
export function closeSillyTavernDrawers(ownIcon: Element): void {
    for (const drawer of document.querySelectorAll('.openDrawer:not(.pinnedOpen)')) {
        drawer.classList.replace('openDrawer', 'closedDrawer');
    }
    for (const icon of document.querySelectorAll('.openIcon:not(.drawerPinnedOpen)')) {
        if (icon !== ownIcon) icon.classList.replace('openIcon', 'closedIcon');
    }
}

/** Calls `onClosedBySillyTavern` when SillyTavern flips our open icon to closed (it opened a drawer of its own). */
export function watchIconFlips(icon: Element, isOpen: () => boolean, onClosedBySillyTavern: () => void): void {
    new MutationObserver(() => {
        if (isOpen() && icon.classList.contains('closedIcon')) onClosedBySillyTavern();
    }).observe(icon, { attributes: true, attributeFilter: ['class'] });
}
