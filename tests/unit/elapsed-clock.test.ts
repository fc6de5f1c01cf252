import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ElapsedClock } from '../../src/ui/timeline/elapsed-clock';

test('a start stamp ahead of the page clock reads zero, then counts forward on the monotonic clock', () => {
    const clock = new ElapsedClock();
    // The worker stamped the start 145 ms "after" the page's now: a stale render or clock skew.
    assert.equal(clock.read(10_145, null, 10_000, 500), 0);
    assert.equal(clock.read(10_145, null, 10_000, 1_500), 1_000, 'the wall clock stood still; the monotonic one moved');
});

test('a wall clock jumping back does not move the elapsed time back', () => {
    const clock = new ElapsedClock();
    assert.equal(clock.read(1_000, null, 3_000, 0), 2_000);
    assert.equal(clock.read(1_000, null, -80_000, 1_000), 3_000);
});

test('a new start stamp anchors anew, but what was shown is never taken back', () => {
    const clock = new ElapsedClock();
    assert.equal(clock.read(5_000, null, 6_000, 0), 1_000);
    // The journal's start replaces the page's provisional one: 300 ms later than the page thought.
    assert.equal(clock.read(5_300, null, 6_100, 100), 1_000);
    assert.equal(clock.read(5_300, null, 7_300, 1_300), 2_000);
});

test('the end stamp fixes the time, but not below what was shown while it ran', () => {
    const clock = new ElapsedClock();
    assert.equal(clock.read(0, null, 2_400, 0), 2_400);
    assert.equal(clock.read(0, 2_300, 2_450, 50), 2_400, 'the end event came a frame after the last tick');
    assert.equal(new ElapsedClock().read(0, 2_300, 9_999, 0), 2_300, 'an ended run read afresh shows its own time');
});
