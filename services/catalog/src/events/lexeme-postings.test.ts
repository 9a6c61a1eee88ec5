// A search's match read in memory: what parseMatch accepts (the tsquery text eventSearchQuery
// writes) and refuses (left to PostgreSQL), and postings that stay right as slots come and go
// and as a lexeme turns from sorted slots into a bitmap. The list index's tests compare whole
// search answers with PostgreSQL's (list-index.test.ts).
import { expect, test } from 'bun:test'
import { LexemePostings, parseMatch, slotsOf, type MatchNode } from './lexeme-postings'

// the parsed match's nodes, written short
const lex = (lexeme: string, prefix = false): MatchNode => ({ lexeme, prefix })
const or = (...args: MatchNode[]): MatchNode => ({ op: 'or', args })
const and = (...args: MatchNode[]): MatchNode => ({ op: 'and', args })

test('parses lexemes and prefixes under & and |, as PostgreSQL writes them', () => {
  expect(parseMatch(`'banda' | 'bandar'`)).toEqual(or(lex('banda'), lex('bandar')))
  expect(parseMatch(`('kopi') & ( 'jakarta' | 'dki' )`)).toEqual(and(lex('kopi'), or(lex('jakarta'), lex('dki'))))
  // & binds closer than |, as in a tsquery
  expect(parseMatch(`'a' | 'b' & 'c':*`)).toEqual(or(lex('a'), and(lex('b'), lex('c', true))))
  // a quote inside a lexeme is doubled; `:*` inside the quotes is part of it
  expect(parseMatch(`((('jam'':*')))`)).toEqual({ lexeme: "jam':*", prefix: false })
})

test('refuses what it cannot read exactly: phrases, negation, weights, escapes, empty or broken text', () => {
  for (const text of [
    '',
    ' ',
    `'a' <-> 'b'`,
    `!'a'`,
    `'a':A`,
    `'a':*B`,
    `''`,
    `'a\\\\b'`,
    `('a'`,
    `'a')`,
    `'a' &`,
    `'a' 'b'`,
    `a`,
    `'a' & | 'b'`,
  ])
    expect({ text, parsed: parseMatch(text) }).toEqual({ text, parsed: null })
})

test('postings follow adds and removals, through the turn into a bitmap and slots beyond it', () => {
  let capacity = 256
  const postings = new LexemePostings(() => capacity)
  const held = new Map<string, Set<number>>()
  let seed = 7
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
  const words = ['umum', 'jarang', 'jalan', 'juga', 'jam']
  const check = () => {
    const slots = 1 + Math.max(0, ...[...held.values()].flatMap((s) => [...s]))
    const wordsOf = (slots + 31) >>> 5
    for (const word of words) {
      const expected = [...(held.get(word) ?? [])].sort((a, b) => a - b)
      expect([...slotsOf(postings.evaluate({ lexeme: word, prefix: false }, wordsOf))]).toEqual(expected)
    }
    const prefixed = [...new Set(['jarang', 'jalan', 'juga', 'jam'].flatMap((w) => [...(held.get(w) ?? [])]))].sort(
      (a, b) => a - b,
    )
    expect([...slotsOf(postings.evaluate({ lexeme: 'j', prefix: true }, wordsOf))]).toEqual(prefixed)
    expect([...slotsOf(postings.evaluate({ lexeme: 'ja', prefix: true }, wordsOf))]).toEqual(
      [...new Set(['jarang', 'jalan', 'jam'].flatMap((w) => [...(held.get(w) ?? [])]))].sort((a, b) => a - b),
    )
    expect(postings.lexemes).toBe([...held.values()].filter((s) => s.size).length)
  }
  for (let round = 0; round < 4; round++) {
    // "umum" on most slots (a bitmap), "jarang" on few (sorted slots), added out of order
    for (let i = 0; i < 600; i++) {
      const slot = Math.floor(random() * capacity)
      for (const word of words)
        if (random() < (word === 'umum' ? 0.8 : word === 'jarang' ? 0.02 : word === 'jalan' ? 0.06 : 0.2)) {
          postings.add(word, slot)
          if (!held.has(word)) held.set(word, new Set())
          held.get(word)!.add(slot)
        }
    }
    check()
    // one by one, then in batches (a refresh removes its changed events together)
    for (let i = 0; i < 300; i++) {
      const gone = Array.from({ length: i < 150 ? 1 : 1 + Math.floor(random() * 40) }, () => Math.floor(random() * capacity))
      postings.remove(gone)
      for (const set of held.values()) for (const slot of gone) set.delete(slot)
    }
    check()
    // the index grows: bitmaps widen when a slot past them arrives
    capacity *= 2
  }
  // every event gone, one by one: no posting is left behind
  for (let slot = 0; slot < capacity; slot++) postings.remove([slot])
  expect(postings.lexemes).toBe(0)
})
