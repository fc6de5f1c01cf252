import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clampPanelWidth, readPanelSettings } from '../../src/contract/panel-settings';
import { endWindow, viewportInList } from '../../src/ui/timeline/height-index';
import { progressText } from '../../src/ui/send-indicator';

test('the list window in a panel that scrolls as a whole', () => {
    // The list starts 300 px down the panel; the panel shows 600 px.
    assert.deepEqual(viewportInList(0, 600, 300), { top: 0, height: 300 }, 'only its first 300 px are in view');
    assert.deepEqual(viewportInList(500, 600, 300), { top: 200, height: 600 }, 'scrolled into it');
    assert.deepEqual(viewportInList(0, 200, 300), { top: 0, height: 0 }, 'below the fold: nothing in view');
});

test('the window a list following its end draws: its last viewport, once it outgrows the view', () => {
    // 2,000 px of rows in a 600 px scroller, the view still at the top: draw the last 600 px.
    assert.deepEqual(endWindow(2000, { top: 0, height: 600 }, 600), { top: 1400, height: 600 });
    // The list starts below the scroller's top, so only 300 px of it are in view: the end window is the whole 600.
    assert.deepEqual(endWindow(2000, { top: 0, height: 300 }, 600), { top: 1400, height: 600 });
    // The list fits, or the view already shows its end: the view as it is.
    assert.deepEqual(endWindow(500, { top: 0, height: 300 }, 600), { top: 0, height: 300 });
    assert.deepEqual(endWindow(2000, { top: 1400, height: 600 }, 600), { top: 1400, height: 600 });
});

test('panel settings: defaults, one broken field falls back alone, widths are clamped whole pixels', () => {
    assert.deepEqual(readPanelSettings(undefined), { version: 1, defaultProfileId: 'writer', sendIndicator: true, panelWidth: null });
    assert.deepEqual(readPanelSettings({ defaultProfileId: 'editor', sendIndicator: 'yes', panelWidth: 99999 }), {
        version: 1, defaultProfileId: 'editor', sendIndicator: true, panelWidth: null,
    });
    assert.equal(readPanelSettings({ panelWidth: 640 }).panelWidth, 640);
    assert.equal(clampPanelWidth(120), 300);
    assert.equal(clampPanelWidth(5000), 1200);
    assert.equal(clampPanelWidth(455.6), 456);
});

test('the Send badge names the turn and the tool running', () => {
    assert.equal(progressText(null), 'Agent preparing…');
    assert.equal(progressText({ round: 2, tool: 'workspace.write_file', waiting: false }), 'Turn 2 · workspace.write_file');
    assert.equal(progressText({ round: 3, tool: null, waiting: true }), 'Turn 3 · thinking…');
});
