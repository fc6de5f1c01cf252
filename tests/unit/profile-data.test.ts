import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProfileListing } from '../../src/contract/wire';
import { profileData, refreshProfiles } from '../../src/ui/profiles/profile-data';
import { provideServices, type PanelServices } from '../../src/ui/services';

/** A worker whose listings answer only when the test lets them: each call reads the stored profiles at once. */
function heldEngine(stored: () => Record<string, unknown>) {
    const held: Array<() => void> = [];
    let calls = 0;
    const engine = {
        async listProfiles(profiles: Record<string, unknown>): Promise<ProfileListing[]> {
            calls += 1;
            const ids = Object.keys(profiles);
            await new Promise<void>((resolve) => held.push(resolve));
            return ids.map((id) => ({ id, builtIn: false, profile: null }) as unknown as ProfileListing);
        },
        async listTools() {
            return [];
        },
    };
    provideServices({
        engine: async () => engine,
        profiles: { stored, save() {}, remove() {}, connections: () => [] },
    } as unknown as PanelServices);
    return {
        /** Lets every listing asked so far answer; returns how many that was. */
        release() {
            const due = held.splice(0);
            for (const resolve of due) resolve();
            return due.length;
        },
        calls: () => calls,
    };
}

const until = async (condition: () => boolean) => {
    for (let i = 0; i < 100 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
    assert.ok(condition(), 'the awaited state came');
};

test('a refresh asked while one is under way shows what was stored when it was asked, not the older reload', async () => {
    let stored: Record<string, unknown> = { mine: {} };
    const engine = heldEngine(() => stored);
    const first = refreshProfiles();
    await until(() => engine.calls() === 2);
    // The user saves a profile while the first reload is still waiting for the worker.
    stored = { mine: {}, saved: {} };
    const second = refreshProfiles();
    const third = refreshProfiles();
    assert.equal(second, third, 'callers during one reload share the one reload after it');
    engine.release();
    await first;
    assert.deepEqual(profileData.value?.listings.map((listing) => listing.id), ['mine'], 'the first reload shows what it read');
    await until(() => engine.calls() === 4);
    engine.release();
    await second;
    assert.deepEqual(profileData.value?.listings.map((listing) => listing.id), ['mine', 'saved'], 'the save is in the list once the caller awaited it');
    assert.equal(engine.calls(), 4, 'one more reload, not one per caller');
});

test('a refresh with none under way reloads once', async () => {
    const engine = heldEngine(() => ({ only: {} }));
    const done = refreshProfiles();
    await until(() => engine.calls() === 2);
    engine.release();
    await done;
    assert.deepEqual(profileData.value?.listings.map((listing) => listing.id), ['only']);
    assert.equal(engine.calls(), 2);
});
