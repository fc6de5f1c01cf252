import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { firstStartGate } from '../harness/first-start-gate';

const ST_DIR = path.resolve(import.meta.dirname, '..', '..');
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function folder(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), 'first-start-gate-'));
}

test('the first start holds the gate; a second waits until it answered, and later starts pass at once', async () => {
    const dir = folder();
    const release = await firstStartGate(ST_DIR, '1.0', 10_000, dir);
    assert.equal(fs.readdirSync(dir).filter((name) => name.endsWith('.lock')).length, 1);
    let second = false;
    const waiting = firstStartGate(ST_DIR, '1.0', 10_000, dir).then((done) => {
        second = true;
        return done;
    });
    await tick(1_200);
    assert.equal(second, false, 'the second start waits while the first compiles');
    release(true);
    (await waiting)(true);
    assert.equal(second, true);
    assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.lock')), [], 'the lock is gone');
    const started = Date.now();
    (await firstStartGate(ST_DIR, '1.0', 10_000, dir))(true);
    assert.ok(Date.now() - started < 500, 'a warm start does not wait');
    fs.rmSync(dir, { recursive: true, force: true });
});

test('a start that did not answer leaves no marker: the next start holds the gate itself', async () => {
    const dir = folder();
    (await firstStartGate(ST_DIR, '1.0', 10_000, dir))(false);
    assert.deepEqual(fs.readdirSync(dir), []);
    const release = await firstStartGate(ST_DIR, '1.0', 10_000, dir);
    assert.equal(fs.readdirSync(dir).filter((name) => name.endsWith('.lock')).length, 1, 'it took the lock');
    release(true);
    fs.rmSync(dir, { recursive: true, force: true });
});

test("a lock left by a process that is gone is taken over; another version's gate is its own", async () => {
    const dir = folder();
    const release = await firstStartGate(ST_DIR, '1.0', 10_000, dir);
    const [lock] = fs.readdirSync(dir);
    release(false);
    // A holder that died without releasing: a pid no process has.
    fs.writeFileSync(path.join(dir, lock!), '2147483646');
    const started = Date.now();
    const taken = await firstStartGate(ST_DIR, '1.0', 10_000, dir);
    assert.ok(Date.now() - started < 500, 'no wait for a dead holder');
    assert.equal(fs.readFileSync(path.join(dir, lock!), 'utf8'), String(process.pid));
    const other = await firstStartGate(ST_DIR, '2.0', 10_000, dir);
    assert.equal(fs.readdirSync(dir).filter((name) => name.endsWith('.lock')).length, 2, 'another version locks apart');
    taken(true);
    other(true);
    fs.rmSync(dir, { recursive: true, force: true });
});

test('waiting gives up after its bound and starts anyway', async () => {
    const dir = folder();
    const release = await firstStartGate(ST_DIR, '1.0', 10_000, dir);
    const started = Date.now();
    (await firstStartGate(ST_DIR, '1.0', 600, dir))(false);
    const waited = Date.now() - started;
    assert.ok(waited >= 600 && waited < 3_000, `waited ${waited} ms`);
    release(true);
    fs.rmSync(dir, { recursive: true, force: true });
});
