// Leaves the page as it was before plain-line-per-step.js.
(() => {
    const state = globalThis.__benchPlainLines;
    if (!state) return;
    state.observer?.disconnect();
    state.lines?.remove();
    delete globalThis.__benchPlainLines;
})();
