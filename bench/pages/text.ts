/** Deterministic filler text for the worker figures: the same bytes on every run, no data files. */

const WORDS = (
    'the forest was quiet and the lantern swayed over the river while she walked past old stones ' +
    'silver moon hollow wind a traveler spoke softly of roads and kings of rain upon the hills ' +
    'and every tavern door stood open to the night where songs of distant harbors drifted ' +
    'through smoke and amber light the healer listened to each story with patient eyes ' +
    'Seraphina smiled gently as embers rose from the hearth beneath carved wooden beams'
).split(' ');

/** mulberry32: a tiny seeded PRNG. */
export function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** About `chars` characters of sentences built from WORDS. */
export function prose(random: () => number, chars: number): string {
    const out: string[] = [];
    let length = 0;
    while (length < chars) {
        const count = 6 + Math.floor(random() * 12);
        const words: string[] = [];
        for (let i = 0; i < count; i += 1) words.push(WORDS[Math.floor(random() * WORDS.length)]!);
        const sentence = `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
        out.push(sentence);
        length += sentence.length + 1;
    }
    return out.join(' ').slice(0, chars);
}
