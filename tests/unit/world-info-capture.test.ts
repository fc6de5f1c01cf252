// Run: node --import tsx --test tests/unit/world-info-capture.test.ts
// The events replayed here are those SillyTavern 1.19 emits in world-info.js during a dry run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorldInfoCapture } from '../../src/host/lore/world-info-capture';

const dragon = { world: 'Eldoria', uid: 3, comment: 'Dragons', key: ['dragon'], content: 'Dragons sleep.', constant: false };
const lore = (entries: unknown[]) => ({ globalLore: [], characterLore: [], chatLore: entries, personaLore: [] });

test('a scan that activated entries is captured with them (the last loop holds them all)', () => {
    const capture = createWorldInfoCapture();
    capture.onEntriesLoaded(lore([dragon, {}]));
    capture.onScanDone({ activated: { entries: new Map() } });
    capture.onScanDone({ activated: { entries: new Map([['Eldoria.3', dragon]]) } });
    assert.deepEqual(capture.result(), {
        captured: true,
        entries: [{ book: 'Eldoria', uid: 3, title: 'Dragons', keys: ['dragon'], content: 'Dragons sleep.', constant: false }],
    });
});

test('a scan where nothing matched is a captured, empty activation', () => {
    const capture = createWorldInfoCapture();
    capture.onEntriesLoaded(lore([dragon]));
    capture.onScanDone({ activated: { entries: new Map() } });
    assert.deepEqual(capture.result(), { captured: true, entries: [] });
});

test('books without entries: SillyTavern skips the scan, and nothing was activated', () => {
    const capture = createWorldInfoCapture();
    capture.onEntriesLoaded(lore([]));
    assert.deepEqual(capture.result(), { captured: true, entries: [] });
});

test('no scan seen for the turn: the activation is not captured (not "nothing activated")', () => {
    assert.deepEqual(createWorldInfoCapture().result(), { captured: false, entries: [] });
    const loadedOnly = createWorldInfoCapture();
    loadedOnly.onEntriesLoaded(lore([dragon]));
    assert.deepEqual(loadedOnly.result(), { captured: false, entries: [] }, 'entries to scan, but no scan result');
    const malformed = createWorldInfoCapture();
    malformed.onScanDone({ activated: {} });
    assert.equal(malformed.result().captured, false);
});
