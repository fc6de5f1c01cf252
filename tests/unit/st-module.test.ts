import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importStModule } from '../../src/host/sillytavern/st-module';

describe('importStModule', () => {
    it('imports a module once and hands every later caller the same namespace', async () => {
        const url = `data:text/javascript,${encodeURIComponent('export const value = 1;')}`;
        const first = importStModule<{ value: number }>(url);
        // A second import() would be a new promise that resolves in a task of its own: the kept one is not.
        assert.equal(importStModule(url), first, 'the second caller gets the kept promise, not a new import');
        assert.equal((await first).value, 1);
        assert.equal(importStModule(url), first, 'still kept once it has loaded');
    });

    it('does not keep a failed import: the next call tries again', async () => {
        const url = `data:text/javascript,${encodeURIComponent('throw new Error("not loaded yet")')}`;
        const failed = importStModule(url);
        await assert.rejects(failed, /not loaded yet/);
        const retried = importStModule(url);
        assert.notEqual(retried, failed, 'a new import, not the failed promise');
        await assert.rejects(retried, /not loaded yet/);
    });
});
