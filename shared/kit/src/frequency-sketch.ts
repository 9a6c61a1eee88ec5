/**
 * About how often each key was asked lately, in a few bytes a key: a count-min sketch (four rows
 * of small saturating counters; a key's count is the least of its four) whose counts are halved
 * every `10 x width` increments, so popularity fades and a once-hot key does not stay forever.
 *
 * Why: the response cache keeps an answer past its small window only when it was asked before,
 * lately. With an LRU alone every answer asked once (most of a Zipf tail) was compressed on its
 * miss for nothing and pushed a reused one out.
 */
export class FrequencySketch {
  private readonly table: Uint8Array
  private readonly width: number
  private readonly sampleSize: number
  private additions = 0

  /** `expectedKeys`: about how many keys the cache holds (the table is 4 bytes a slot, rounded up to a power of two). */
  constructor(expectedKeys: number) {
    this.width = 2 ** Math.ceil(Math.log2(Math.min(1 << 20, Math.max(64, expectedKeys))))
    this.table = new Uint8Array(this.width * ROWS)
    this.sampleSize = 10 * this.width
  }

  /** The estimated count of `key` (0-15). */
  frequency(key: string): number {
    const [first, step] = hashes(key)
    let least = MAX_COUNT
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.table[this.slot(row, first, step)])
    return least
  }

  /** Counts one more use of `key`. */
  increment(key: string): void {
    const [first, step] = hashes(key)
    let least = MAX_COUNT
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.table[this.slot(row, first, step)])
    if (least === MAX_COUNT) return
    // conservative update: only the rows at the least count grow, so collisions overstate less
    for (let row = 0; row < ROWS; row++) {
      const at = this.slot(row, first, step)
      if (this.table[at] === least) this.table[at] = least + 1
    }
    if (++this.additions >= this.sampleSize) this.age()
  }

  private slot(row: number, first: number, step: number): number {
    return row * this.width + ((first + row * step) & (this.width - 1))
  }

  private age() {
    for (let i = 0; i < this.table.length; i++) this.table[i] >>= 1
    this.additions = Math.floor(this.additions / 2)
  }
}

const ROWS = 4
const MAX_COUNT = 15
const HASHES: [number, number] = [0, 0]

/** Two 32-bit hashes of `key` for double hashing (`first + row * step`); `step` is odd. */
function hashes(key: string): [number, number] {
  const first = Bun.hash.xxHash32(key)
  HASHES[0] = first
  HASHES[1] = (Math.imul(first ^ (first >>> 16), 0x85ebca6b) ^ (first >>> 13)) | 1
  return HASHES
}
