// The published events' list keys, in memory: a list page filtered by any combination of city,
// category, tag, format and price (gratis), in any list order, and its exact total, without a
// query. PostgreSQL then reads only the page's cards by id. The detail's related events come from
// it too (`related`: the branches of related.ts read from memory, each kept until one of its
// events changes), and so do most searches: the events holding each search lexeme are kept too
// (lexeme-postings.ts), and a search's match is one more filter.
//
// Why: with two or more of those filters no index of events holds the order, so PostgreSQL walked
// an order index past every event of the broader filter, or sorted all matches (a city + tag page
// 4.8 ms, a tag + price count 13 ms at 100k events, 10x that at 1M; pg_stat_statements under the
// bench's lists scenario). Here a page and its total cost one scan of the smallest filter's events
// (typed arrays, no allocation per event), then a sort of the matches or a walk of the order,
// whichever reads less; a list by format or price alone, or none, reads kept counts.
//
// Exactness: the index answers only at a data version it has applied (`at`; a list waits up to
// CATCH_UP_MS for one being applied), otherwise the list reads PostgreSQL as before. It follows
// the writes' notifications, every version in commit order with its change keys (`event:<id>`,
// migration 0008): the changed events are read again by id. A version without keys (a city
// renamed, a bulk statement), a version missing from the sequence or a reconnected listener
// reloads everything, at most every RELOAD_EVERY_MS, and the lists read PostgreSQL meanwhile. Title order is PostgreSQL's own
// (ranks read in its collation; a changed title is placed after the neighbour it names).
import { sql } from 'drizzle-orm'
import type { Database } from '@app/db'
import type { ListIndexStats, Logger } from '@app/kit'
import { LexemePostings, popcount, slotsOf, type MatchNode } from './lexeme-postings'
import type { EventSort } from './model'
import { localDate, ZONES, zoneOf } from './windows'

export interface IndexFilters {
  kota?: string
  kategori?: string
  tag?: string
  format?: string
  gratis?: string
  /** a search's match (lexeme-postings.ts, parseMatch) */
  match?: MatchNode
}

export interface IndexPage {
  /** the page's event ids, in the list order */
  ids: string[]
  /** every published event matching the filters */
  total: number
}

export type IndexPager = (filters: IndexFilters, sort: EventSort, offset: number, limit: number) => IndexPage

/** What an event's related events are computed from (related.ts): ids of its category, city, tags. */
export interface RelatedOf {
  id: string
  categoryId: string
  cityId: string | null
  tagIds: string[]
}

/** The index at one data version: list pages, and the ids of an event's related events. */
export interface IndexView {
  page: IndexPager
  related(self: RelatedOf, nowMs: number): string[]
  /**
   * The event its index holds under `slug` and that event's related ids, before PostgreSQL is
   * asked: a detail's miss then reads the event and its related cards in one statement. Only
   * the slug's hash is kept, so the caller checks the id against the event it reads.
   */
  detail(slug: string, nowMs: number): { id: string; related: string[] } | undefined
}

export interface ListIndex {
  /**
   * The pages as of `version` (what the cache answers at): at once when the index has applied
   * it, after a short wait when it is applying it (a write's events are read again), undefined
   * when it is loading or the wait runs out (the list then reads PostgreSQL).
   */
  at(version: number): Promise<IndexView | undefined>
  readonly size: number
  stats(): ListIndexStats
  close(): void
}

const FORMATS: Record<string, number> = { offline: 0, online: 1, hybrid: 2 }
const BATCH = 2_000
const RELOAD_EVERY_MS = 5_000
/**
 * How long a list waits for the index to apply a write's events (a few ms normally) before it
 * reads PostgreSQL instead: under 5 writes/s the lists fell back to SQL after every approval, and
 * a two-filter list there costs 2-13 ms of the database's time.
 */
const CATCH_UP_MS = 100
/** Matches of a filter kept for sorting, at most (more: the order is walked for the page). */
const SORT_AT_MOST = 4_096
/** The largest city or category number + 1 the packed order fields hold (14 bits each). */
const FIELD_NUMBER_MAX = 0x3fff
/**
 * What sorting one match by its position costs, in slots of an order walked: a page is read from
 * whichever is cheaper (the lists scenario's 20,000 pages took 12-14 us each on the bench data at
 * 1, 2, 4 or 8 here, against 17-18 us when matches were sorted with a comparison callback).
 */
const SORTED_COST = 4
/** Where every write announces its version and change keys (migrations 0005, 0008). */
const VERSION_CHANNEL = 'data_version'
/** Related events (related.ts): at most RELATED_LIMIT, ranked from CANDIDATES per branch (each branch reads one more: the event itself may be among them). */
export const RELATED_LIMIT = 4
export const CANDIDATES = 6
const DAY_MS = 86_400_000
const DAY_ZERO = Date.UTC(2000, 0, 1)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

const PROBE = new Uint32Array(4)

/** A UUID's 32 hex digits into four words at `out[at..at+3]`, without a string made on the way. */
function parseUuid(id: string, out: Uint32Array, at: number) {
  let word = 0
  let digits = 0
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i)
    if (c === 45) continue
    word = word * 16 + (c <= 57 ? c - 48 : c - 87)
    if (++digits % 8 === 0) {
      out[at + digits / 8 - 1] = word >>> 0
      word = 0
    }
  }
}

/** Data the index cannot hold (an id that is not a UUID, an unknown format): it stays off. */
class Unsupported extends Error {}

/** A slug's 32-bit FNV-1a hash: the index keeps this, not the slug (~40 bytes less per event). */
export function slugHash(slug: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < slug.length; i++) hash = Math.imul(hash ^ slug.charCodeAt(i), 0x01000193)
  return hash | 0
}

/** Slots by a 32-bit key of theirs: open addressing, linear probing, backward-shift deletion (no tombstones). */
class SlotTable {
  private cells: Int32Array
  private held = 0
  constructor(
    capacity: number,
    private readonly keyOf: (slot: number) => number,
  ) {
    this.cells = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(64, capacity) * 2))).fill(-1)
  }

  private home(key: number): number {
    return (Math.imul(key, 0x9e3779b1) >>> 0) & (this.cells.length - 1)
  }

  /** The first slot with `key` that `matches`, or -1. */
  find(key: number, matches?: (slot: number) => boolean): number {
    const mask = this.cells.length - 1
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const slot = this.cells[i]
      if (slot < 0) return -1
      if (this.keyOf(slot) === key && (!matches || matches(slot))) return slot
    }
  }

  insert(slot: number) {
    if ((this.held + 1) * 2 > this.cells.length) {
      const old = this.cells
      this.cells = new Int32Array(old.length * 2).fill(-1)
      this.held = 0
      for (const s of old) if (s >= 0) this.insert(s)
    }
    const mask = this.cells.length - 1
    let i = this.home(this.keyOf(slot))
    while (this.cells[i] >= 0) i = (i + 1) & mask
    this.cells[i] = slot
    this.held++
  }

  /** While the slot's key is still its own. */
  remove(slot: number) {
    const mask = this.cells.length - 1
    let i = this.home(this.keyOf(slot))
    while (this.cells[i] !== slot) i = (i + 1) & mask
    let hole = i
    for (let j = (i + 1) & mask; this.cells[j] >= 0; j = (j + 1) & mask) {
      const home = this.home(this.keyOf(this.cells[j]))
      // an entry stays when its home lies cyclically in (hole, j]: probing from home reaches j
      // without passing the hole; otherwise it moves into the hole
      const stays = hole < j ? home > hole && home <= j : home > hole || home <= j
      if (!stays) {
        this.cells[hole] = this.cells[j]
        hole = j
      }
    }
    this.cells[hole] = -1
    this.held--
  }
}

/** A growable list of slots; order does not matter (removal swaps in the last one). */
class SlotList {
  items = new Int32Array(4)
  length = 0
  push(slot: number) {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2)
      grown.set(this.items)
      this.items = grown
    }
    this.items[this.length++] = slot
  }
  remove(slot: number) {
    const at = this.items.subarray(0, this.length).indexOf(slot)
    if (at >= 0) this.items[at] = this.items[--this.length]
  }
  /** Drops the room grown for (after a load: up to half of it). */
  fit() {
    this.items = this.items.slice(0, this.length + 4)
  }
}

/** The in-memory part: slots of published events, their keys, postings per value and orders. */
export class IndexData {
  private cap: number
  private live = 0
  /** slots ever handed out; freed ones are reused first */
  private nextSlot = 0
  /** UUID ids as four 32-bit words, so ties compare as the text does (lowercase hex, byte order) */
  private idWords: Uint32Array
  private created: Float64Array
  private start: Int32Array
  /** end date (days since 2000-01-01) and the zone of its city (ZONES index): "not ended yet" */
  private end: Int32Array
  private zone: Uint8Array
  private price: Float64Array
  private titleRank: Float64Array
  private city: Int32Array
  private category: Int32Array
  private format: Uint8Array
  private free: Uint8Array
  /**
   * Each slot's city, category, format and price packed in one word (`fieldsOf`), as the orders
   * keep them by position: a scan of a tag's or a search's events compares one read with a mask.
   */
  private slotFields: Uint32Array
  /** an event's tags: tagCount[slot] numbers from tagPool[tagStart[slot]] (a replaced event's old
   * run stays unused in the pool until the next load) */
  private tagStart: Int32Array
  private tagCount: Uint8Array
  private tagPool = new Int32Array(1024)
  private tagPoolLength = 0
  /** the tags of held events: the pool is compacted when it holds twice as many */
  private tagsHeld = 0
  private freeSlots: number[] = []
  /** id -> slot, keyed by the id's random low words (UUID v7) */
  private bySlotId: SlotTable
  /** slugHash of each held event's slug, and slug hash -> slot (collisions are told apart by the id read) */
  private slugKey: Int32Array
  private bySlug: SlotTable
  /** the events holding each search lexeme */
  private lexemes = new LexemePostings(() => this.cap)

  /** `capacity`: the events expected (a load counts them first), so the arrays are not grown 2x */
  constructor(capacity = 1024) {
    this.cap = Math.max(64, capacity)
    this.idWords = new Uint32Array(this.cap * 4)
    this.created = new Float64Array(this.cap)
    this.start = new Int32Array(this.cap)
    this.end = new Int32Array(this.cap)
    this.zone = new Uint8Array(this.cap)
    this.price = new Float64Array(this.cap)
    this.titleRank = new Float64Array(this.cap)
    this.city = new Int32Array(this.cap)
    this.category = new Int32Array(this.cap)
    this.format = new Uint8Array(this.cap)
    this.free = new Uint8Array(this.cap)
    this.slotFields = new Uint32Array(this.cap)
    this.tagStart = new Int32Array(this.cap)
    this.tagCount = new Uint8Array(this.cap)
    this.slugKey = new Int32Array(this.cap)
    this.bySlotId = new SlotTable(this.cap, (slot) => this.idWords[slot * 4 + 3] ^ this.idWords[slot * 4 + 1])
    this.bySlug = new SlotTable(this.cap, (slot) => this.slugKey[slot])
    for (const order of Object.values(this.orders)) {
      order.slots = new Int32Array(this.cap)
      order.fields = new Uint32Array(this.cap)
    }
  }

  /** slot lists per city, category and tag number; per format x price, only counts */
  private byCity = new Map<number, SlotList>()
  private byCategory = new Map<number, SlotList>()
  private byTag = new Map<number, SlotList>()
  /** per city, category, both and overall (countKey): events by format x price (6 cells) */
  private counts = new Map<number, Int32Array>()
  /**
   * Every live slot in each stored order (start_date_desc is start_date_asc read backwards), and
   * beside each its city, category, format and price packed in one word (`fieldsOf`): a walk of
   * an order for a filtered page reads one array front to back instead of four at random places
   * (in the service, between other work, the random reads were most of a page's cost).
   */
  private orders: Record<OrderName, { slots: Int32Array; fields: Uint32Array; length: number }> = {
    created: { slots: new Int32Array(0), fields: new Uint32Array(0), length: 0 },
    start: { slots: new Int32Array(0), fields: new Uint32Array(0), length: 0 },
    price: { slots: new Int32Array(0), fields: new Uint32Array(0), length: 0 },
    title: { slots: new Int32Array(0), fields: new Uint32Array(0), length: 0 },
  }
  /** slugs -> small numbers (ids of cities, categories, tags mapped once) */
  readonly cities = new Map<string, number>()
  readonly categories = new Map<string, number>()
  readonly tagSlugs = new Map<string, number>()
  readonly numbers = new Map<string, number>()

  get size() {
    return this.live
  }

  /** A city, category or tag id as a small number (stable for the index's life). */
  numberOf(id: string): number {
    let n = this.numbers.get(id)
    if (n === undefined) this.numbers.set(id, (n = this.numbers.size))
    return n
  }

  /** by a quarter: after a load the capacity is the count, and the writes add few */
  private grow() {
    const cap = Math.ceil(this.cap * 1.25) + 64
    const widen = <T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(a: T, per = 1): T => {
      const b = new (a.constructor as new (n: number) => T)(cap * per)
      b.set(a)
      return b
    }
    this.idWords = widen(this.idWords, 4)
    this.created = widen(this.created)
    this.start = widen(this.start)
    this.end = widen(this.end)
    this.zone = widen(this.zone)
    this.price = widen(this.price)
    this.titleRank = widen(this.titleRank)
    this.city = widen(this.city)
    this.category = widen(this.category)
    this.format = widen(this.format)
    this.free = widen(this.free)
    this.slotFields = widen(this.slotFields)
    this.tagStart = widen(this.tagStart)
    this.tagCount = widen(this.tagCount)
    this.slugKey = widen(this.slugKey)
    this.cap = cap
  }

  private writeId(slot: number, id: string) {
    parseUuid(id, this.idWords, slot * 4)
  }

  idOf(slot: number): string {
    const w = this.idWords
    const at = slot * 4
    const [a, b, c, d] = [w[at], w[at + 1], w[at + 2], w[at + 3]]
    return (
      HEX[a >>> 24] + HEX[(a >>> 16) & 255] + HEX[(a >>> 8) & 255] + HEX[a & 255] + '-' +
      HEX[b >>> 24] + HEX[(b >>> 16) & 255] + '-' + HEX[(b >>> 8) & 255] + HEX[b & 255] + '-' +
      HEX[c >>> 24] + HEX[(c >>> 16) & 255] + '-' + HEX[(c >>> 8) & 255] + HEX[c & 255] +
      HEX[d >>> 24] + HEX[(d >>> 16) & 255] + HEX[(d >>> 8) & 255] + HEX[d & 255]
    )
  }

  /** <0, 0, >0 as the ids of two slots compare */
  private compareIds(a: number, b: number): number {
    for (let w = 0; w < 4; w++) {
      const x = this.idWords[a * 4 + w]
      const y = this.idWords[b * 4 + w]
      if (x !== y) return x < y ? -1 : 1
    }
    return 0
  }

  private readonly compare = {
    created: (a: number, b: number) => this.created[b] - this.created[a] || this.compareIds(b, a),
    start: (a: number, b: number) => this.start[a] - this.start[b] || this.compareIds(a, b),
    price: (a: number, b: number) => this.price[a] - this.price[b] || this.compareIds(a, b),
    title: (a: number, b: number) => this.titleRank[a] - this.titleRank[b],
  }

  /** whether a slot's id is the one parsed into PROBE */
  private readonly isProbe = (slot: number) => {
    const at = slot * 4
    return (
      this.idWords[at] === PROBE[0] && this.idWords[at + 1] === PROBE[1] && this.idWords[at + 2] === PROBE[2] && this.idWords[at + 3] === PROBE[3]
    )
  }

  /** The slot of an id, or -1. */
  slotOf(id: string): number {
    if (!UUID.test(id)) return -1
    parseUuid(id, PROBE, 0)
    return this.bySlotId.find(PROBE[3] ^ PROBE[1], this.isProbe)
  }

  /** The slot held under a slug (or under another slug with the same hash), or -1. */
  slotOfSlug(slug: string): number {
    return this.bySlug.find(slugHash(slug))
  }

  private posting(map: Map<number, SlotList>, key: number): SlotList {
    let list = map.get(key)
    if (!list) map.set(key, (list = new SlotList()))
    return list
  }

  /**
   * Adds or replaces a published event. `titleRank` places it in the title order (PostgreSQL's
   * collation: ranks come from the database).
   */
  put(row: IndexRow, bulk = false) {
    const existing = this.slotOf(row.id)
    if (existing >= 0) this.remove(row.id)
    const tagIds = row.tags
    if (tagIds.length > 255) throw new Unsupported(`an event has ${tagIds.length} tags (LIMITS.tagsMax is 10)`)
    if (!(row.format in FORMATS)) throw new Unsupported(`unknown format ${row.format}`)
    if (!this.freeSlots.length && this.nextSlot === this.cap) this.grow()
    const slot = this.freeSlots.pop() ?? this.nextSlot++
    this.writeId(slot, row.id)
    this.created[slot] = row.createdMicros
    this.start[slot] = row.startDay
    this.end[slot] = row.endDay
    this.zone[slot] = Math.max(0, ZONES.indexOf(zoneOf(row.timeZone)))
    this.price[slot] = row.price
    this.titleRank[slot] = row.titleRank
    this.city[slot] = row.cityId === null ? -1 : this.numberOf(row.cityId)
    this.category[slot] = this.numberOf(row.categoryId)
    this.format[slot] = FORMATS[row.format]
    this.free[slot] = row.isFree ? 1 : 0
    this.slotFields[slot] = this.fieldsOf(slot)
    if (this.tagPoolLength > 2 * this.tagsHeld + 4096) this.compactTags()
    if (this.tagPoolLength + tagIds.length > this.tagPool.length) {
      const grown = new Int32Array(Math.ceil((this.tagPoolLength + tagIds.length) * 1.25) + 1024)
      grown.set(this.tagPool.subarray(0, this.tagPoolLength))
      this.tagPool = grown
    }
    this.tagStart[slot] = this.tagPoolLength
    this.tagCount[slot] = tagIds.length
    for (const tag of tagIds) this.tagPool[this.tagPoolLength++] = this.numberOf(tag)
    this.tagsHeld += tagIds.length
    this.slugKey[slot] = slugHash(row.slug)
    this.bySlotId.insert(slot)
    this.bySlug.insert(slot)
    this.live++
    if (this.city[slot] >= 0) this.posting(this.byCity, this.city[slot]).push(slot)
    this.posting(this.byCategory, this.category[slot]).push(slot)
    for (let i = 0; i < tagIds.length; i++) this.posting(this.byTag, this.tagPool[this.tagStart[slot] + i]).push(slot)
    for (const lexeme of row.lexemes ?? []) this.lexemes.add(lexeme, slot)
    this.count(slot, 1)
    this.forgetBranches(slot)
    // a bulk load appends, then sorts each order once (finishBulk)
    for (const name of ORDER_NAMES) bulk ? this.orderAppend(name, slot) : this.orderInsert(name, slot)
  }

  /** Rewrites the tag pool with the held events' runs only (replaced events left theirs behind). */
  private compactTags() {
    const pool = new Int32Array(Math.ceil(this.tagsHeld * 1.25) + 1024)
    let length = 0
    const held = this.orders.created
    for (let i = 0; i < held.length; i++) {
      const slot = held.slots[i]
      const from = this.tagStart[slot]
      this.tagStart[slot] = length
      for (let t = 0; t < this.tagCount[slot]; t++) pool[length++] = this.tagPool[from + t]
    }
    this.tagPool = pool
    this.tagPoolLength = length
  }

  /** A held event's title rank, during a bulk load (before finishBulk sorts the orders). */
  setTitleRank(id: string, rank: number) {
    const slot = this.slotOf(id)
    if (slot >= 0) this.titleRank[slot] = rank
  }

  /**
   * Each slot's position in each order, made on first use after that order changed: a page of a
   * few hundred matches is then their positions sorted as numbers (a native sort of an
   * Int32Array) instead of a comparison callback per pair, or a walk of the whole order.
   */
  private positions: Partial<Record<OrderName, Int32Array>> = {}

  private positionsIn(name: OrderName): Int32Array {
    const made = this.positions[name]
    if (made) return made
    const order = this.orders[name]
    const positions = new Int32Array(this.cap)
    for (let i = 0; i < order.length; i++) positions[order.slots[i]] = i
    return (this.positions[name] = positions)
  }

  /**
   * A slot's city, category, format and price as one word (city and category numbers + 1, so
   * "none" is 0): what a walk compares with a mask. Numbers too large for their bits (more than
   * 16,383 cities, categories and tags seen) turn `fieldsHeld` off, and walks read the slot's own
   * arrays again.
   */
  private fieldsOf(slot: number): number {
    const city = this.city[slot] + 1
    const category = this.category[slot] + 1
    if (city > FIELD_NUMBER_MAX || category > FIELD_NUMBER_MAX) this.fieldsHeld = false
    return ((city & FIELD_NUMBER_MAX) << 17) | ((category & FIELD_NUMBER_MAX) << 3) | (this.format[slot] << 1) | this.free[slot]
  }

  private fieldsHeld = true

  /** Sorts the orders after a bulk load (put with `bulk`). */
  finishBulk() {
    this.positions = {}
    for (const map of [this.byCity, this.byCategory, this.byTag]) for (const list of map.values()) list.fit()
    this.lexemes.fit()
    for (const name of ORDER_NAMES) {
      const order = this.orders[name]
      order.slots.set(Array.from(order.slots.subarray(0, order.length)).sort(this.compare[name]))
      for (let i = 0; i < order.length; i++) order.fields[i] = this.fieldsOf(order.slots[i])
    }
  }

  private orderAppend(name: OrderName, slot: number) {
    this.positions[name] = undefined
    const order = this.orders[name]
    if (order.length === order.slots.length) {
      const size = Math.ceil(order.slots.length * 1.25) + 64
      const slots = new Int32Array(size)
      slots.set(order.slots)
      order.slots = slots
      const fields = new Uint32Array(size)
      fields.set(order.fields)
      order.fields = fields
    }
    order.fields[order.length] = this.fieldsOf(slot)
    order.slots[order.length++] = slot
  }

  /** Removes events (unpublished, deleted, or about to be put again); nothing for one not held. */
  remove(ids: string | readonly string[]) {
    const slots: number[] = []
    for (const id of typeof ids === 'string' ? [ids] : ids) {
      const slot = this.removeKeys(id)
      if (slot >= 0) slots.push(slot)
    }
    // their search lexemes in one pass, before a put reuses the slots
    this.lexemes.remove(slots)
  }

  /** Everything of an event but its lexemes; its slot (freed), or -1. */
  private removeKeys(id: string): number {
    const slot = this.slotOf(id)
    if (slot < 0) return -1
    // while the slot still names its tags
    this.forgetBranches(slot)
    for (const name of ORDER_NAMES) this.orderRemove(name, slot)
    if (this.city[slot] >= 0) this.byCity.get(this.city[slot])?.remove(slot)
    this.byCategory.get(this.category[slot])?.remove(slot)
    for (let i = 0; i < this.tagCount[slot]; i++) this.byTag.get(this.tagPool[this.tagStart[slot] + i])?.remove(slot)
    this.tagsHeld -= this.tagCount[slot]
    this.tagCount[slot] = 0
    this.count(slot, -1)
    this.bySlotId.remove(slot)
    this.bySlug.remove(slot)
    this.live--
    this.freeSlots.push(slot)
    return slot
  }

  /** Where `slot` goes (or is) in an order: the first position whose slot sorts after it. */
  private position(name: OrderName, slot: number): number {
    const order = this.orders[name]
    const compare = this.compare[name]
    let lo = 0
    let hi = order.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (compare(order.slots[mid], slot) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private orderInsert(name: OrderName, slot: number) {
    this.orderAppend(name, slot)
    const order = this.orders[name]
    order.length--
    const at = this.position(name, slot)
    order.slots.copyWithin(at + 1, at, order.length)
    order.slots[at] = slot
    order.fields.copyWithin(at + 1, at, order.length)
    order.fields[at] = this.fieldsOf(slot)
    order.length++
  }

  private orderRemove(name: OrderName, slot: number) {
    this.positions[name] = undefined
    const order = this.orders[name]
    let at = this.position(name, slot)
    // equal keys (a title rank shared after a failed placement) sit side by side
    while (at < order.length && order.slots[at] !== slot) at++
    if (at === order.length) at = order.slots.subarray(0, order.length).indexOf(slot)
    if (at < 0) return
    order.slots.copyWithin(at, at + 1, order.length)
    order.fields.copyWithin(at, at + 1, order.length)
    order.length--
  }

  /**
   * A title rank right after `previousId` (or first): between its rank and the next one's. When
   * repeated inserts at one place (titles that sort together, as a series of events does) leave
   * no room, the title order is numbered again 1..n (its order does not change), then placed.
   * Null when `previousId` is not held.
   */
  titleRankAfter(previousId: string | null): number | null {
    const title = this.orders.title
    let at = 0
    if (previousId !== null) {
      const previous = this.slotOf(previousId)
      if (previous < 0) return null
      at = this.position('title', previous) + 1
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const before = at > 0 ? this.titleRank[title.slots[at - 1]] : 0
      const after = at < title.length ? this.titleRank[title.slots[at]] : before + 2
      const rank = (before + after) / 2
      if (rank > before && rank < after) return rank
      for (let i = 0; i < title.length; i++) this.titleRank[title.slots[i]] = i + 1
    }
    return null
  }

  /** One page of the events matching every filter, in `sort`, and their total. */
  page(filters: IndexFilters, sort: EventSort, offset: number, limit: number): IndexPage {
    const none = { ids: [], total: 0 }
    const city = filters.kota === undefined ? -1 : (this.cities.get(filters.kota) ?? -2)
    const category = filters.kategori === undefined ? -1 : (this.categories.get(filters.kategori) ?? -2)
    const tag = filters.tag === undefined ? -1 : (this.tagSlugs.get(filters.tag) ?? -2)
    const format = filters.format === undefined ? -1 : (FORMATS[filters.format] ?? -2)
    const free = filters.gratis === undefined ? -1 : filters.gratis === '1' ? 1 : 0
    if (city === -2 || category === -2 || tag === -2 || format === -2) return none
    // a search: the slots its match holds, as a bitmap (checked per slot); listed only when they
    // drive or are few (a common word's list was a 360 KB array per search miss)
    const matchBits = filters.match && this.lexemes.evaluate(filters.match, (this.nextSlot + 31) >>> 5)
    const matchCount = matchBits ? popcount(matchBits) : 0
    if (matchBits && matchCount === 0) return none
    // the smallest posting among the filters drives; format and price only check
    let driver: { items: Int32Array; length: number } | undefined
    let tagDrives = false
    for (const [map, key] of [
      [this.byCity, city],
      [this.byCategory, category],
      [this.byTag, tag],
    ] as const) {
      if (key < 0) continue
      const list = map.get(key)
      if (!list || list.length === 0) return none
      if (!driver || list.length < driver.length) (driver = list), (tagDrives = map === this.byTag)
    }
    // a search alone needs its list only to sort a few matches (a common word's page is walked)
    const onlyMatch = matchBits && city < 0 && category < 0 && format < 0 && free < 0 && tag < 0
    let matchDrives = false
    if (matchBits && (!driver || matchCount < driver.length) && !(onlyMatch && matchCount > SORT_AT_MOST)) {
      driver = { items: slotsOf(matchBits), length: matchCount }
      tagDrives = false
      matchDrives = true
    }
    const cities = this.city
    const categories = this.category
    const formats = this.format
    const frees = this.free
    const tags = this.tagPool
    const tagStart = this.tagStart
    const tagCount = this.tagCount
    const hasTag = (slot: number) => {
      for (let i = tagStart[slot], end = i + tagCount[slot]; i < end; i++) if (tags[i] === tag) return true
      return false
    }
    const inMatch = (slot: number) => ((matchBits![slot >>> 5] >>> (slot & 31)) & 1) === 1
    const fieldsMatch = (slot: number) =>
      (city < 0 || cities[slot] === city) &&
      (category < 0 || categories[slot] === category) &&
      (format < 0 || formats[slot] === format) &&
      (free < 0 || frees[slot] === free)
    // the filters as one mask and value over the packed fields (fieldsOf)
    const packed = this.fieldsHeld && city < FIELD_NUMBER_MAX && category < FIELD_NUMBER_MAX
    const mask = (city >= 0 ? FIELD_NUMBER_MAX << 17 : 0) | (category >= 0 ? FIELD_NUMBER_MAX << 3 : 0) | (format >= 0 ? 6 : 0) | (free >= 0 ? 1 : 0)
    const want =
      (city >= 0 ? (city + 1) << 17 : 0) | (category >= 0 ? (category + 1) << 3 : 0) | (format >= 0 ? format << 1 : 0) | (free >= 0 ? free : 0)
    const slotFields = this.slotFields
    // a slot of the driver: what the driver itself holds is not checked again (a tag's events
    // have the tag), the other fields in one read (the scans of tag pages were most of a list
    // miss's page cost, four arrays read at random places per slot)
    const checkTag = tag >= 0 && !tagDrives
    const checkMatch = !!matchBits && !matchDrives
    const matches = (slot: number) =>
      (packed ? (slotFields[slot] & mask) === want : fieldsMatch(slot)) &&
      (!checkTag || hasTag(slot)) &&
      (!checkMatch || inMatch(slot))
    // the driver's own filter alone: every slot of it matches
    const driverOnly = mask === 0 && !checkTag && !checkMatch
    const name: OrderName = sort === 'created_at_desc' ? 'created' : sort === 'price_asc' ? 'price' : sort === 'title_asc' ? 'title' : 'start'
    const backwards = sort === 'start_date_desc'
    const order = this.orders[name]
    const at = (i: number) => order.slots[backwards ? order.length - 1 - i : i]

    // without a tag or a search the total is kept (per city, category, both, and overall, by format
    // x price); a search alone has its matches; otherwise the driver is scanned (a tag's events are
    // few) and its matches kept for sorting
    let total: number
    let found: Int32Array | undefined
    if (onlyMatch) {
      total = matchCount
      if (total <= SORT_AT_MOST) found = driver!.items
    } else if (tag < 0 && !matchBits) {
      const cells = this.counts.get(countKey(city, category))
      total = 0
      if (cells) for (let cell = 0; cell < 6; cell++) if ((format < 0 || format === cell >> 1) && (free < 0 || free === (cell & 1))) total += cells[cell]
    } else {
      if (driverOnly) {
        total = driver!.length
        if (total <= SORT_AT_MOST) found = driver!.items.subarray(0, total)
      } else {
        const hits = new Int32Array(Math.min(driver!.length, SORT_AT_MOST + 1))
        total = 0
        for (let i = 0; i < driver!.length; i++) {
          const slot = driver!.items[i]
          if (!matches(slot)) continue
          if (total <= SORT_AT_MOST) hits[total] = slot
          total++
        }
        if (total <= SORT_AT_MOST) found = hits.subarray(0, total)
      }
    }
    if (offset >= total) return { ids: [], total }
    if (city < 0 && category < 0 && format < 0 && free < 0 && tag < 0 && !matchBits) {
      const ids: string[] = []
      for (let i = offset; i < Math.min(total, offset + limit); i++) ids.push(this.idOf(at(i)))
      return { ids, total }
    }
    // the page from the sorted matches, or from a walk of the order: whichever reads less
    const walk = Math.min(order.length, ((offset + limit) * order.length) / total)
    if (!found && driver && total <= SORT_AT_MOST && driver.length + total * SORTED_COST < walk) {
      found = new Int32Array(total)
      let n = 0
      for (let i = 0; i < driver.length; i++) if (matches(driver.items[i])) found[n++] = driver.items[i]
    }
    if (found && found.length * SORTED_COST < walk) {
      const positions = this.positionsIn(name)
      const sorted = new Int32Array(found.length)
      for (let i = 0; i < found.length; i++) sorted[i] = positions[found[i]]
      sorted.sort()
      const ids: string[] = []
      for (let i = offset, end = Math.min(found.length, offset + limit); i < end; i++)
        ids.push(this.idOf(order.slots[sorted[backwards ? found.length - 1 - i : i]]))
      return { ids, total }
    }
    const ids: string[] = []
    const slots = order.slots
    const last = order.length - 1
    let skipped = 0
    const fields = order.fields
    for (let i = 0; i <= last && ids.length < limit; i++) {
      const at = backwards ? last - i : i
      const slot = slots[at]
      if (packed ? (fields[at] & mask) !== want : !fieldsMatch(slot)) continue
      if (tag >= 0 && !hasTag(slot)) continue
      if (matchBits && !inMatch(slot)) continue
      if (skipped < offset) skipped++
      else ids.push(this.idOf(slot))
    }
    return { ids, total }
  }

  /**
   * The first CANDIDATES + 1 events of each branch that have not ended yet (in their zone), by
   * branch key and the zones' dates: a branch is shared by every event of its category, city or
   * tag, and forgotten when one of its events changes (a few thousand small arrays at most).
   */
  private branches = new Map<number, { today: string; slots: Int32Array }>()

  private forgetBranches(slot: number) {
    if (this.branches.size === 0) return
    const category = this.category[slot]
    const city = this.city[slot]
    this.branches.delete(branchKey(BY_CATEGORY, category))
    if (city >= 0) this.branches.delete(branchKey(BY_CITY, city)), this.branches.delete(branchKey(BY_CITY_CATEGORY, city, category))
    for (let i = this.tagStart[slot], end = i + this.tagCount[slot]; i < end; i++) this.branches.delete(branchKey(BY_TAG, this.tagPool[i]))
  }

  /**
   * The CANDIDATES + 1 first events of `list` (of city `onlyCity` and category `onlyCategory`
   * unless -1: -2, unknown, keeps none) that have not ended by `today` (days, per zone): the
   * soonest ending (end date, id), as the related branch queries of related.ts read them.
   */
  private branch(key: number, list: SlotList | undefined, { days: today, key: day }: Today, onlyCity = -1, onlyCategory = -1): Int32Array {
    const memo = this.branches.get(key)
    if (memo && memo.today === day) return memo.slots
    const k = CANDIDATES + 1
    const best = new Int32Array(k)
    let n = 0
    const ends = this.end
    const before = (a: number, b: number) => ends[a] < ends[b] || (ends[a] === ends[b] && this.compareIds(a, b) < 0)
    const zones = this.zone
    const cities = this.city
    const categories = this.category
    for (let i = 0; list && i < list.length; i++) {
      const slot = list.items[i]
      if (ends[slot] < today[zones[slot]]) continue
      if ((onlyCity !== -1 && cities[slot] !== onlyCity) || (onlyCategory !== -1 && categories[slot] !== onlyCategory)) continue
      if (n === k && !before(slot, best[k - 1])) continue
      let at = n < k ? n++ : k - 1
      while (at > 0 && before(slot, best[at - 1])) {
        best[at] = best[at - 1]
        at--
      }
      best[at] = slot
    }
    const slots = best.slice(0, n)
    this.branches.set(key, { today: day, slots })
    return slots
  }

  /** the zones' dates at the last minute asked for (a date changes only on a whole minute) */
  private today: Today & { minute: number } = { minute: Number.NaN, days: new Int32Array(ZONES.length), key: '' }

  private todayAt(nowMs: number): Today {
    const minute = Math.floor(nowMs / 60_000)
    if (this.today.minute !== minute) {
      const days = new Int32Array(ZONES.map((zone) => (Date.parse(localDate(nowMs, zone)) - DAY_ZERO) / DAY_MS))
      this.today = { minute, days, key: days.join(',') }
    }
    return this.today
  }

  /**
   * The ids of `self`'s related events at `nowMs`: the same branches, ranking and ties as the
   * SQL of related.ts (the test compares them), read from memory.
   */
  related(self: RelatedOf, nowMs: number): string[] {
    const category = this.numbers.get(self.categoryId) ?? -2
    const city = self.cityId === null ? -1 : (this.numbers.get(self.cityId) ?? -2)
    const tags = self.tagIds.map((id) => this.numbers.get(id) ?? -2)
    return this.relatedOf(this.slotOf(self.id), category, city, tags, nowMs)
  }

  /** The held event under `slug` (by its hash) and its related ids, as `related` gives them. */
  detail(slug: string, nowMs: number): { id: string; related: string[] } | undefined {
    const slot = this.slotOfSlug(slug)
    if (slot < 0) return undefined
    const from = this.tagStart[slot]
    const tags = Array.from(this.tagPool.subarray(from, from + this.tagCount[slot]))
    return { id: this.idOf(slot), related: this.relatedOf(slot, this.category[slot], this.city[slot], tags, nowMs) }
  }

  /**
   * Related ids of the event `own` (-1: not held) filed under these numbers (-1: no city, -2:
   * unknown). A few dozen candidates at most: arrays and an insertion into the best few, not a
   * Map and a sort (it runs on every detail miss: 13.4 us a detail with them, 5.75 without).
   */
  private relatedOf(own: number, category: number, city: number, tags: number[], nowMs: number): string[] {
    const today = this.todayAt(nowMs)
    const lists: Int32Array[] = [this.branch(branchKey(BY_CATEGORY, category), this.byCategory.get(category), today)]
    if (city !== -1) {
      const inCity = this.byCity.get(city)
      const inCategory = this.byCategory.get(category)
      const key = branchKey(BY_CITY_CATEGORY, city, category)
      lists.push(
        (inCity?.length ?? 0) <= (inCategory?.length ?? 0)
          ? this.branch(key, inCity, today, -1, category)
          : this.branch(key, inCategory, today, city, -1),
        this.branch(branchKey(BY_CITY, city), inCity, today),
      )
    }
    for (const tag of tags) lists.push(this.branch(branchKey(BY_TAG, tag), this.byTag.get(tag), today))
    // each candidate once, scored as related.ts scores it
    const candidates: number[] = []
    const scores: number[] = []
    for (const list of lists) {
      let taken = 0
      for (let i = 0; i < list.length && taken < CANDIDATES; i++) {
        const slot = list[i]
        if (slot === own) continue
        taken++
        if (candidates.includes(slot)) continue
        let shared = 0
        for (let t = this.tagStart[slot], end = t + this.tagCount[slot]; t < end; t++) if (tags.includes(this.tagPool[t])) shared++
        candidates.push(slot)
        scores.push((this.category[slot] === category ? 2 : 0) + (city >= 0 && this.city[slot] === city ? 1 : 0) + 2 * shared)
      }
    }
    // the RELATED_LIMIT best: higher score, then sooner start, then id
    const best: number[] = []
    const bestScores: number[] = []
    const starts = this.start
    for (let c = 0; c < candidates.length; c++) {
      const slot = candidates[c]
      const score = scores[c]
      let at = best.length
      while (at > 0) {
        const other = best[at - 1]
        const otherScore = bestScores[at - 1]
        const ahead = score > otherScore || (score === otherScore && (starts[slot] < starts[other] || (starts[slot] === starts[other] && this.compareIds(slot, other) < 0)))
        if (!ahead) break
        at--
      }
      if (at >= RELATED_LIMIT) continue
      best.splice(at, 0, slot)
      bestScores.splice(at, 0, score)
      if (best.length > RELATED_LIMIT) best.pop(), bestScores.pop()
    }
    return best.map((slot) => this.idOf(slot))
  }

  /** Keeps the format x price counts of the event's city, category, both, and of every event. */
  private count(slot: number, delta: number) {
    const cell = this.format[slot] * 2 + this.free[slot]
    const city = this.city[slot]
    const category = this.category[slot]
    const keys = [countKey(-1, -1), countKey(-1, category)]
    if (city >= 0) keys.push(countKey(city, -1), countKey(city, category))
    for (const key of keys) {
      let cells = this.counts.get(key)
      if (!cells) this.counts.set(key, (cells = new Int32Array(6)))
      cells[cell] += delta
    }
  }
}

/** The zones' dates (days since DAY_ZERO, per ZONES index) and them as one memo key. */
interface Today {
  days: Int32Array
  key: string
}

/** The kinds of related branches, and one branch's memo key (numbers are below 2^21, as in countKey). */
const BY_CATEGORY = 1
const BY_CITY = 2
const BY_CITY_CATEGORY = 3
const BY_TAG = 4
const branchKey = (kind: number, a: number, b = 0) => kind * 2 ** 42 + (a + 2) * 2 ** 21 + (b + 2)

/** The key of a city and category pair in the kept counts (-1: any; an event without a city counts under -1 only). */
const countKey = (city: number, category: number) => (city + 1) * 2 ** 21 + (category + 1)

type OrderName = 'created' | 'start' | 'price' | 'title'
const ORDER_NAMES: OrderName[] = ['created', 'start', 'price', 'title']

/** One published event as the index keeps it. */
export interface IndexRow {
  id: string
  slug: string
  createdMicros: number
  startDay: number
  endDay: number
  /** the IANA zone of its city (null: no city, WIB) */
  timeZone: string | null
  price: number
  titleRank: number
  cityId: string | null
  categoryId: string
  format: string
  isFree: boolean
  tags: string[]
  /** its search lexemes (event_search.lexemes) */
  lexemes?: string[]
}

const ROW_COLUMNS = sql`e.id, e.slug, (extract(epoch from e.created_at) * 1000000)::float8 as "createdMicros",
  (e.start_date - date '2000-01-01') as "startDay", (e.end_date - date '2000-01-01') as "endDay",
  (select c.time_zone from cities c where c.id = e.city_id) as "timeZone", e.ticket_price_min::float8 as price,
  e.city_id as "cityId", e.category_id as "categoryId", e.event_type::text as format, e.is_free as "isFree",
  array(select et.tag_id from event_tags et where et.event_id = e.id) as tags,
  (select array_to_json(tsvector_to_array(s.lexemes))::text from event_search s where s.event_id = e.id) as "lexemesJson"`

/** A row as read with ROW_COLUMNS: the lexemes come as JSON text (a JSON.parse, not a driver's array parser). */
type ReadRow = Omit<IndexRow, 'titleRank' | 'lexemes'> & { lexemesJson: string | null }
const withLexemes = <R extends ReadRow>({ lexemesJson, ...row }: R) => ({ ...row, lexemes: lexemesJson ? (JSON.parse(lexemesJson) as string[]) : [] })

/** Reads every published event (in batches: each under the statement timeout) and the slugs. */
async function load(database: Database): Promise<{ data: IndexData; version: number }> {
  // the version first: every write after it arrives as change keys and is applied on top
  const [{ version }] = await database.rows<{ version: string }>(sql`select version from data_versions where scope = 'public'`)
  const [{ count }] = await database.rows<{ count: number }>(sql`select count(*)::int as count from events where status = 'published'`)
  const data = new IndexData(Math.ceil(count * 1.02) + 64)
  let lastId = ''
  let batches = 0
  for (;;) {
    const rows = await database.rows<ReadRow>(sql`
      select ${ROW_COLUMNS} from events e where e.status = 'published' and e.id > ${lastId} order by e.id limit ${BATCH}`)
    for (const row of rows) {
      if (!UUID.test(row.id)) throw new Unsupported(`event id ${row.id} is not a UUID`)
      data.put({ ...withLexemes(row), titleRank: 0 }, true)
    }
    if (rows.length < BATCH) break
    lastId = rows[rows.length - 1].id
    // each batch's rows are garbage once put: collected as the load goes, the heap does not grow
    // by the whole table's worth of row objects first (peak RSS of a 90k-event load 171 -> 114 MiB;
    // with the lexemes' JSON every 4th batch, not every 10th: 153-166 -> 134-137 MiB, 0.3-1 s longer)
    if (++batches % 4 === 0) Bun.gc(true)
  }
  // title ranks in PostgreSQL's own order (its collation); an event unpublished meanwhile keeps
  // rank 0 until its change, already queued, removes it
  let last: { title: string; id: string } | undefined
  let rank = 0
  for (;;) {
    const rows = await database.rows<{ id: string; title: string }>(sql`
      select id, title from events where status = 'published'
      ${last ? sql`and (title, id) > (${last.title}, ${last.id})` : sql``}
      order by title, id limit ${BATCH}`)
    for (const row of rows) data.setTitleRank(row.id, ++rank)
    if (rows.length < BATCH) break
    last = rows[rows.length - 1]
    if (++batches % 10 === 0) Bun.gc(true)
  }
  data.finishBulk()
  for (const [table, map] of [
    [sql`cities`, data.cities],
    [sql`categories`, data.categories],
    [sql`tags`, data.tagSlugs],
  ] as const)
    for (const row of await database.rows<{ id: string; slug: string }>(sql`select id, slug from ${table}`))
      map.set(row.slug, data.numberOf(row.id))
  return { data, version: Number(version) }
}

/**
 * Reads the given events again and applies them (published: put; otherwise: removed). False when
 * one cannot be placed in the title order (its neighbour is not held yet): the caller reloads.
 */
async function refresh(database: Database, data: IndexData, ids: string[]): Promise<boolean> {
  const rows = await database.rows<ReadRow & { previous: string | null; tagSlugs: [string, string][] }>(sql`
    select ${ROW_COLUMNS},
      (select p.id from events p where p.status = 'published' and (p.title, p.id) < (e.title, e.id)
        order by p.title desc, p.id desc limit 1) as previous,
      array(select array[t.id, t.slug] from event_tags et join tags t on t.id = et.tag_id where et.event_id = e.id) as "tagSlugs"
    from events e where e.status = 'published' and e.id = any(${sql.param(ids)}::text[])`)
  // removed first, so a changed event is not taken for a neighbour at its old place
  data.remove(ids)
  // each after its previous neighbour when that one is among them
  let pending = rows
  while (pending.length) {
    const waiting = new Set(pending.map((r) => r.id))
    const ready = pending.filter((r) => r.previous === null || !waiting.has(r.previous))
    if (!ready.length) return false
    for (const row of ready) {
      const rank = data.titleRankAfter(row.previous)
      if (rank === null) return false
      for (const [id, slug] of row.tagSlugs) data.tagSlugs.set(slug, data.numberOf(id))
      data.put({ ...withLexemes(row), titleRank: rank })
    }
    pending = pending.filter((r) => !ready.includes(r))
  }
  return true
}

/**
 * The index of a catalog process, kept in step with the writes by their notifications
 * (`data_version`, migrations 0005 and 0008), on the database's listening connection: every
 * version in commit order with the keys it changed. It does not follow the response cache's
 * version source, which, when it stops trusting its listener under load, reads versions without
 * their keys: at 1M events every such version reloaded the index (mix with 5 writes/s: 245 rps).
 * Loads in the background; until then, and whenever it is behind, `at` answers undefined.
 */
export function createListIndex(database: Database, logger?: Logger): ListIndex {
  let data: IndexData | undefined
  let applied = -1
  /** versions notified and their event ids (null: unknown), not yet applied */
  const queued: { version: number; ids: string[] | null }[] = []
  /** notifications may have been missed (the listener (re)connected): reload */
  let missed = true
  let loads = 0
  let running: Promise<void> | undefined
  let lastLoad = Number.NEGATIVE_INFINITY
  let closed = false
  /** a load before the first LISTEN could miss changes, and the listener's start would redo it */
  let listening = false
  let timer: Timer | undefined
  let unlisten: (() => Promise<void>) | undefined
  /** lists waiting for a version to be applied */
  const waiting = new Set<{ version: number; wake: () => void }>()
  function wake(all = false) {
    for (const waiter of waiting)
      if (all || waiter.version <= applied) {
        waiting.delete(waiter)
        waiter.wake()
      }
  }

  async function work() {
    while (!closed) {
      // versions the data already holds are done; the next must follow the last applied one
      while (data && queued.length && queued[0].version <= applied) queued.shift()
      const gap = data && queued.length && queued[0].version !== applied + 1
      const keyless = queued.find((q) => q.ids === null)
      if (!data || missed || gap || keyless) {
        const reason = !data ? 'not loaded' : missed ? 'listener (re)connected' : gap ? `version ${applied + 1} missing` : `version ${keyless!.version} without keys`
        if (data) logger?.warn('list index reloads', { reason })
        data = undefined
        wake(true)
        const wait = lastLoad + RELOAD_EVERY_MS - performance.now()
        if (wait > 0) {
          // lists read PostgreSQL until then
          await new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))
          continue
        }
        lastLoad = performance.now()
        loads++
        missed = false
        const loaded = await load(database)
        // every change committed before the load read its version is in it
        while (queued.length && queued[0].version <= loaded.version) queued.shift()
        data = loaded.data
        applied = loaded.version
        wake()
        // on a reload the previous index is garbage now
        Bun.gc(true)
        continue
      }
      if (!queued.length) return
      const batch = queued.splice(0, queued.length)
      const ids = [...new Set(batch.flatMap((q) => q.ids!))]
      if (ids.length && !(await refresh(database, data, ids))) {
        logger?.warn('list index reloads', { reason: 'a changed title could not be placed' })
        data = undefined
        continue
      }
      applied = batch[batch.length - 1].version
      wake()
    }
  }

  function kick() {
    if (running || closed || !listening) return
    running = work()
      .catch((error) => {
        // the database is away: lists read PostgreSQL (and fail there as they would) until the
        // listener reconnects, a later change, or the next request retries
        data = undefined
        wake(true)
        if (error instanceof Unsupported) closed = true
        logger?.warn(closed ? 'list index off' : 'list index failed to load', { error: String(error) })
      })
      .finally(() => {
        running = undefined
        if (!closed && (queued.length || missed)) kick()
      })
  }

  function onNotify(payload: string) {
    // "<version>" (anything may have changed) or {"v": <version>, "k": [<keys>]}; replicas' pings
    // ("ping:...") share the channel
    let version: number
    let ids: string[] | null = null
    if (payload.startsWith('{')) {
      try {
        const parsed = JSON.parse(payload) as { v: number; k?: unknown }
        version = Number(parsed.v)
        if (Array.isArray(parsed.k))
          ids = parsed.k.filter((k): k is string => typeof k === 'string' && k.startsWith('event:') && UUID.test(k.slice(6))).map((k) => k.slice(6))
      } catch {
        return
      }
    } else version = Number(payload)
    if (!Number.isSafeInteger(version)) return
    queued.push({ version, ids })
    kick()
  }

  // listening before loading: no change can fall between the load's version and the first
  // notification. A first LISTEN that fails (the database is not up yet) is tried again by the
  // next list that asks.
  let starting: Promise<void> | undefined
  function startListening() {
    starting ??= database
      .listen(VERSION_CHANNEL, onNotify, () => {
        // (re)listening: what was notified meanwhile is lost
        listening = true
        missed = true
        kick()
      })
      .then((stop) => {
        unlisten = stop
        if (closed) void stop().catch(() => {})
      })
      .catch((error) => {
        starting = undefined
        logger?.warn('list index cannot listen', { error: String(error) })
      })
  }
  startListening()

  return {
    async at(version) {
      if (data && applied < version && running) {
        let timeout: Timer | undefined
        await new Promise<void>((resolve) => {
          const waiter = { version, wake: resolve }
          waiting.add(waiter)
          timeout = setTimeout(() => {
            waiting.delete(waiter)
            resolve()
          }, CATCH_UP_MS)
        })
        clearTimeout(timeout)
      }
      if (!data || applied < version) {
        if (!listening && !closed) startListening()
      else if (!running && !data) kick()
        return undefined
      }
      const current = data
      return {
        page: (filters, sort, offset, limit) => current.page(filters, sort, offset, limit),
        related: (self, nowMs) => current.related(self, nowMs),
        detail: (slug, nowMs) => current.detail(slug, nowMs),
      }
    },
    get size() {
      return data?.size ?? 0
    },
    stats: () => ({ events: data?.size ?? 0, loads }),
    close() {
      closed = true
      clearTimeout(timer)
      wake(true)
      void unlisten?.().catch(() => {})
    },
  }
}
