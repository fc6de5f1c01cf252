/**
 * Memory blocks live in contract/memory-block.ts: the panel's Memory view (issue 37 §1) reads and edits them on
 * the page, where workspace/ may not be imported. The worker side keeps importing them from here.
 */
export * from '../contract/memory-block';
