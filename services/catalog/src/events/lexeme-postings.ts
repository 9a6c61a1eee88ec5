// Which published events hold each search lexeme (event_search.lexemes, migration 0021), kept by
// the list index (list-index.ts) so that a search's match (shared/db/src/search.ts,
// eventSearchQuery: lexemes and prefixes joined by & and |) is evaluated in memory, its page and
// total found as a list's are, and PostgreSQL reads only the page's cards.
//
// Why: a search's count and page read every matching row of the search copy and rechecked its
// document (a common word: ~1,000 heap pages, 2-6 ms of the database's time a miss; EXPLAIN
// ANALYZE), and searches were the one scenario bound by PostgreSQL.
//
// A lexeme held by few events keeps their slots as a sorted array; one held by more than a 32nd of
// the slots keeps a bitmap (fewer bytes from there on).

/** A search's match: lexemes (exact, or as a prefix) under AND and OR. */
export type MatchNode = { lexeme: string; prefix: boolean } | { op: 'and' | 'or'; args: MatchNode[] }

/**
 * A tsquery's text as PostgreSQL writes it (`'a' & ( 'b' | 'c':* )`) as a MatchNode, or null for
 * anything else (phrases, negation, weights, escapes, an empty query): PostgreSQL answers those.
 */
export function parseMatch(text: string): MatchNode | null {
  let at = 0
  const skip = () => {
    while (text[at] === ' ') at++
  }
  const operand = (): MatchNode | null => {
    skip()
    if (text[at] === '(') {
      at++
      const inner = either()
      skip()
      if (!inner || text[at] !== ')') return null
      at++
      return inner
    }
    if (text[at] !== "'") return null
    let lexeme = ''
    for (at++; ;) {
      if (at >= text.length || text[at] === '\\') return null
      if (text[at] === "'") {
        if (text[at + 1] !== "'") break
        lexeme += "'"
        at += 2
      } else lexeme += text[at++]
    }
    at++
    let prefix = false
    if (text.startsWith(':*', at)) {
      prefix = true
      at += 2
    }
    // a weight (`:A`, `:*B`) or anything glued on
    if (!lexeme || (at < text.length && !' )&|'.includes(text[at]))) return null
    return { lexeme, prefix }
  }
  const joined = (op: 'and' | 'or', sign: string, part: () => MatchNode | null) => (): MatchNode | null => {
    const args: MatchNode[] = []
    for (;;) {
      const arg = part()
      if (!arg) return null
      args.push(arg)
      skip()
      if (text[at] !== sign) return args.length === 1 ? args[0] : { op, args }
      at++
    }
  }
  const both = joined('and', '&', operand)
  const either = joined('or', '|', both)
  const root = either()
  skip()
  return root && at === text.length ? root : null
}

interface Posting {
  /** sorted slots (while the lexeme is rare) */
  slots?: Int32Array
  /** bit per slot (once it is common) */
  bits?: Uint32Array
  length: number
}

export class LexemePostings {
  private postings = new Map<string, Posting>()

  /** `capacity()`: the index's slots now (a posting becomes a bitmap past a 32nd of them). */
  constructor(private readonly capacity: () => number) {}

  get lexemes() {
    return this.postings.size
  }

  add(lexeme: string, slot: number) {
    let posting = this.postings.get(lexeme)
    if (!posting) this.postings.set(lexeme, (posting = { slots: new Int32Array(4), length: 0 }))
    if (posting.bits) {
      const word = slot >>> 5
      if (word >= posting.bits.length) {
        const grown = new Uint32Array(Math.max(word + 1, (this.capacity() + 31) >>> 5))
        grown.set(posting.bits)
        posting.bits = grown
      }
      const bit = 1 << (slot & 31)
      if (!(posting.bits[word] & bit)) posting.length++
      posting.bits[word] |= bit
      return
    }
    let slots = posting.slots!
    // a load hands out slots in rising order: appended
    let at = posting.length
    if (at > 0 && slots[at - 1] >= slot) {
      at = lowerBound(slots, posting.length, slot)
      if (slots[at] === slot) return
    }
    if (posting.length === slots.length) {
      if (posting.length + 1 > Math.max(64, this.capacity() >>> 5)) {
        posting.bits = new Uint32Array((this.capacity() + 31) >>> 5)
        for (let i = 0; i < posting.length; i++) posting.bits[slots[i] >>> 5] |= 1 << (slots[i] & 31)
        posting.slots = undefined
        this.add(lexeme, slot)
        return
      }
      const grown = new Int32Array(slots.length * 2)
      grown.set(slots)
      posting.slots = slots = grown
    }
    slots.copyWithin(at + 1, at, posting.length)
    slots[at] = slot
    posting.length++
  }

  /**
   * Takes `slots` out of every posting, in one pass over them: an event's lexemes are not kept
   * apart (they would double the memory), so a refresh of many changed events removes them
   * together rather than walking every posting once per event.
   */
  remove(slots: readonly number[]) {
    if (!slots.length) return
    const gone = Int32Array.from(slots).sort()
    for (const [lexeme, posting] of this.postings) {
      if (posting.bits) {
        const bits = posting.bits
        for (let i = 0; i < gone.length; i++) {
          const word = gone[i] >>> 5
          const bit = 1 << (gone[i] & 31)
          if (word < bits.length && bits[word] & bit) {
            bits[word] &= ~bit
            posting.length--
          }
        }
      } else if (gone.length * 16 < posting.length) {
        // few removed from a long list: found by binary search
        const held = posting.slots!
        for (let i = 0; i < gone.length; i++) {
          const at = lowerBound(held, posting.length, gone[i])
          if (at < posting.length && held[at] === gone[i]) {
            held.copyWithin(at, at + 1, posting.length)
            posting.length--
          }
        }
      } else {
        // both sorted: one merge
        const held = posting.slots!
        let kept = 0
        for (let i = 0, j = 0; i < posting.length; i++) {
          while (j < gone.length && gone[j] < held[i]) j++
          if (j < gone.length && gone[j] === held[i]) continue
          held[kept++] = held[i]
        }
        posting.length = kept
      }
      if (posting.length === 0) this.postings.delete(lexeme)
    }
  }

  /** Drops the room grown for (after a load). */
  fit() {
    for (const posting of this.postings.values()) if (posting.slots) posting.slots = posting.slots.slice(0, posting.length + 4)
  }

  /** The slots `match` holds, as a bitmap of `words` 32-bit words. */
  evaluate(match: MatchNode, words: number): Uint32Array {
    if ('op' in match) {
      const [first, ...rest] = match.args
      const result = this.evaluate(first, words)
      for (const arg of rest) {
        const other = this.evaluate(arg, words)
        if (match.op === 'and') for (let w = 0; w < words; w++) result[w] &= other[w]
        else for (let w = 0; w < words; w++) result[w] |= other[w]
      }
      return result
    }
    const result = new Uint32Array(words)
    if (!match.prefix) {
      const posting = this.postings.get(match.lexeme)
      if (posting) orInto(result, posting)
    } else for (const [lexeme, posting] of this.postings) if (lexeme.startsWith(match.lexeme)) orInto(result, posting)
    return result
  }
}

function orInto(result: Uint32Array, posting: Posting) {
  if (posting.bits) {
    const n = Math.min(result.length, posting.bits.length)
    for (let w = 0; w < n; w++) result[w] |= posting.bits[w]
  } else {
    const slots = posting.slots!
    for (let i = 0; i < posting.length; i++) {
      const word = slots[i] >>> 5
      if (word < result.length) result[word] |= 1 << (slots[i] & 31)
    }
  }
}

/** The set slots of a bitmap, rising. */
export function slotsOf(bits: Uint32Array): Int32Array {
  const slots = new Int32Array(popcount(bits))
  let n = 0
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]
    while (word !== 0) {
      const low = word & -word
      slots[n++] = (w << 5) + 31 - Math.clz32(low)
      word ^= low
    }
  }
  return slots
}

/** How many slots a bitmap holds. */
export function popcount(bits: Uint32Array): number {
  let count = 0
  for (let w = 0; w < bits.length; w++) {
    let v = bits[w]
    v = v - ((v >>> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
    count += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
  }
  return count
}

/** The first index of `slots[0..length)` not below `slot`. */
function lowerBound(slots: Int32Array, length: number, slot: number): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (slots[mid] < slot) lo = mid + 1
    else hi = mid
  }
  return lo
}
