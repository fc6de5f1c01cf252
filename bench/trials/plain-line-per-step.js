// The floor of showing each step (bench/trials/open-panel-floor.ts): with the timeline's rows hidden by the
// variant's CSS, every row the timeline adds is shown instead as one line of plain text (its text, no classes,
// no framework), in a list below the hidden one that keeps its end in view. Run in the page by ab-trial.ts.
(() => {
    const state = (globalThis.__benchPlainLines ??= {});
    if (state.observer) return;
    const root = document.getElementById('tavern_agent_panel_root');
    const scroller = () => document.querySelector('.tavern-agent__scroll');
    const lines = document.createElement('ol');
    lines.className = 'bench-plain-lines';
    state.lines = lines;
    // Follows the end after the layout that added a line, as the timeline does (no forced layout).
    new ResizeObserver(() => {
        const element = scroller();
        if (element) element.scrollTop = element.scrollHeight;
    }).observe(lines);
    state.observer = new MutationObserver((records) => {
        for (const record of records) {
            for (const node of record.addedNodes) {
                if (!(node instanceof HTMLElement) || !node.matches('ol.tavern-agent__events > li')) continue;
                if (!lines.isConnected) node.parentElement.parentElement.after(lines);
                const line = document.createElement('li');
                line.textContent = node.textContent;
                lines.append(line);
                if (lines.childElementCount > 40) lines.firstElementChild.remove();
            }
        }
    });
    state.observer.observe(root, { childList: true, subtree: true });
})();
