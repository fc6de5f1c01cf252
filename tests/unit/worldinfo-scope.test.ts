// Unit tests of how the page freezes the lorebooks in scope for a run (host/lore/lore-capture.ts, issue 19).
// Run: node --import tsx --test tests/unit/worldinfo-scope.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildRunLore } from '../../src/host/lore/lore-capture';

const raw = (world: string, uid: number, extra: Record<string, unknown> = {}) => ({ world, uid, comment: `E${uid}`, key: [`k${uid}`], content: `content ${uid}`, disable: false, ...extra });

describe('buildRunLore', () => {
    it('keeps every enabled entry of the books SillyTavern loaded, with their source, activation and the chat book', () => {
        const lore = buildRunLore(
            {
                chatLore: [raw('Chat Book', 0)],
                characterLore: [raw('Eldoria', 1), raw('Eldoria', 2, { disable: true }), raw('Extra', 3)],
                globalLore: [raw('World', 4, { key: ['a', '', 'b'] })],
                personaLore: [],
            },
            [],
            'Chat Book',
            [{ book: 'Eldoria', uid: 1, title: 'E1', keys: ['k1'], content: 'content 1', constant: false }],
        );
        assert.deepEqual(lore.books, [
            { name: 'Chat Book', source: 'chat' },
            { name: 'Eldoria', source: 'character' },
            { name: 'Extra', source: 'character' },
            { name: 'World', source: 'global' },
        ]);
        assert.equal(lore.chatBook, 'Chat Book');
        assert.deepEqual(
            lore.entries.map((e) => `${e.book}#${e.uid}${e.activated ? '*' : ''}`),
            ['Chat Book#0', 'Eldoria#1*', 'Extra#3', 'World#4'],
            'the disabled entry is left out; the activated one is marked',
        );
        assert.deepEqual(lore.entries[3]!.keys, ['a', 'b']);
        assert.deepEqual(Object.keys(lore.entries[0]!).sort(), ['activated', 'book', 'content', 'keys', 'title', 'uid'], 'compact: only what the tools need');
    });

    it("adds a group's other members' books once, and lists an empty chat book", () => {
        const lore = buildRunLore(
            { characterLore: [raw('Eldoria', 1)] },
            [
                { name: 'Eldoria', source: 'member', entries: [raw('Eldoria', 1)] },
                { name: 'Aria Lore', source: 'member', entries: [raw('x', 7), raw('x', 8, { disable: true })] },
            ],
            'Empty Chat Book',
            [],
        );
        assert.deepEqual(lore.books.map((b) => `${b.name}:${b.source}`), ['Empty Chat Book:chat', 'Eldoria:character', 'Aria Lore:member']);
        assert.deepEqual(lore.entries.map((e) => `${e.book}#${e.uid}`), ['Eldoria#1', 'Aria Lore#7']);
    });

    it('without a scan seen, only the extra books and the chat book are in scope', () => {
        const lore = buildRunLore(null, [], null, []);
        assert.deepEqual(lore, { books: [], chatBook: null, entries: [] });
    });
});
