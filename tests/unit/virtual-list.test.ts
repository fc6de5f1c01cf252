import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeightIndex, rangeChanged, scrollToReveal, visibleRange } from '../../src/ui/timeline/height-index';

/** The obvious O(n) answers, to check the Fenwick tree against. */
function naive(heights: number[]) {
    const offsetOf = (i: number) => heights.slice(0, i).reduce((a, b) => a + b, 0);
    const indexAt = (offset: number) => {
        let sum = 0;
        for (let i = 0; i < heights.length; i += 1) {
            sum += heights[i]!;
            if (sum > offset) return i;
        }
        return heights.length - 1;
    };
    return { offsetOf, indexAt };
}

test('offsets and lookups agree with a plain sum, through appends and measured changes', () => {
    const index = new HeightIndex(30);
    const heights: number[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 777; i += 1) {
        const h = 10 + Math.floor(random() * 90);
        index.append(h, true);
        heights.push(h);
        if (i % 5 === 0) {
            const j = Math.floor(random() * heights.length);
            const next = 5 + Math.floor(random() * 200);
            index.set(j, next);
            heights[j] = next;
        }
    }
    const check = naive(heights);
    assert.equal(index.total, check.offsetOf(heights.length));
    for (const i of [0, 1, 2, 63, 64, 65, 500, 776, 777]) assert.equal(index.offsetOf(i), check.offsetOf(i), `offsetOf(${i})`);
    for (let k = 0; k < 200; k += 1) {
        const offset = Math.floor(random() * index.total);
        assert.equal(index.indexAt(offset), check.indexAt(offset), `indexAt(${offset})`);
    }
    assert.equal(index.indexAt(-5), 0);
    assert.equal(index.indexAt(index.total + 100), heights.length - 1);
});

test('a row starts exactly at its offset: indexAt(offsetOf(i)) is i', () => {
    const index = new HeightIndex(20);
    for (let i = 0; i < 100; i += 1) index.append();
    for (const i of [0, 1, 37, 99]) assert.equal(index.indexAt(index.offsetOf(i)), i);
});

test('unmeasured rows follow a new estimate, measured ones keep their height', () => {
    const index = new HeightIndex(40);
    for (let i = 0; i < 10; i += 1) index.append();
    index.set(3, 100);
    index.setEstimate(20);
    assert.equal(index.total, 9 * 20 + 100);
    assert.equal(index.isMeasured(3), true);
    assert.equal(index.isMeasured(4), false);
    assert.equal(index.set(3, 100), false, 'the same height is no change');
});

test('the visible range covers the viewport plus overscan, with spacers for the rest', () => {
    const index = new HeightIndex(30);
    for (let i = 0; i < 5000; i += 1) index.append();
    const range = visibleRange(index, 30 * 1000 + 5, 300, 5);
    assert.equal(range.start, 995);
    assert.equal(range.end, 1000 + 11 + 5);
    assert.equal(range.padTop, 995 * 30);
    assert.equal(range.padTop + (range.end - range.start) * 30 + range.padBottom, index.total);
    const atEnd = visibleRange(index, index.total - 300, 300, 5);
    assert.equal(atEnd.end, 5000);
    assert.equal(atEnd.padBottom, 0);
    assert.deepEqual(visibleRange(new HeightIndex(30), 0, 300, 5), { start: 0, end: 0, padTop: 0, padBottom: 0 });
});

test('revealing a row scrolls only as far as needed', () => {
    const index = new HeightIndex(30);
    for (let i = 0; i < 100; i += 1) index.append();
    assert.equal(scrollToReveal(index, 5, 0, 300), null, 'already in view');
    assert.equal(scrollToReveal(index, 50, 0, 300), 51 * 30 - 300, 'below: its bottom at the viewport bottom');
    assert.equal(scrollToReveal(index, 2, 900, 300), 60, 'above: its top at the viewport top');
});

test('measuring the drawn rows leaves both spacers as they were, so the list need not be drawn again for it', () => {
    // The virtual list skips a render after its height observer when the range it would draw is unchanged:
    // that holds because the drawn rows' own heights are in neither spacer.
    const index = new HeightIndex(34);
    for (let i = 0; i < 2000; i += 1) index.append();
    for (let i = 0; i < 300; i += 1) index.set(i, 40 + (i % 3) * 20); // rows scrolled past earlier
    const drawn = visibleRange(index, 300 * 60, 680, 8);
    // Scrolling down, the rows drawn for the first time are the overscan below the view: measured, they move
    // neither the view's first nor its last row.
    for (let i = drawn.end - 8; i < drawn.end; i += 1) index.set(i, 60 + (i % 2) * 20);
    const after = visibleRange(index, 300 * 60, 680, 8);
    assert.equal(index.offsetOf(drawn.start), drawn.padTop);
    assert.equal(index.total - index.offsetOf(drawn.end), drawn.padBottom);
    assert.equal(rangeChanged(drawn, after), false, 'same rows, same spacers');
    // Rows that turn out much shorter leave the view's end uncovered: then it is drawn again.
    for (let i = drawn.start; i < drawn.end; i += 1) index.set(i, 10);
    assert.equal(rangeChanged(drawn, visibleRange(index, 300 * 60, 680, 8)), true);
    assert.equal(rangeChanged(null, after), true, 'nothing drawn yet');
});
