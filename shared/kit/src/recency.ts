/**
 * An order of use, least recently used first, as a doubly linked list of links the caller keeps.
 *
 * Why not a Map's insertion order (delete the key, set it again on each use): JavaScriptCore's
 * Map keeps a slot for every deleted key until it rehashes, and walks them when iterating from the
 * front. In Bun 1.4 (bench/README.md, "the cache's order of use") moving one key to the end of a
 * Map of 20,000 cost 64 us, and taking the oldest key of such a Map while replacing it 16 us, where
 * a lookup costs 0.07 us: the cache's every hit paid for its size. Here both are a few pointer
 * writes, whatever the size.
 */
export interface Link<T> {
  readonly value: T
  prev?: Link<T>
  next?: Link<T>
}

export class RecencyList<T> {
  private head?: Link<T>
  private tail?: Link<T>
  #size = 0

  get size(): number {
    return this.#size
  }

  /** Adds `value` as the most recently used; keep the link to touch or remove it. */
  push(value: T): Link<T> {
    const link: Link<T> = { value }
    this.append(link)
    return link
  }

  /** Marks a link (of this list) as the most recently used. */
  touch(link: Link<T>): void {
    if (this.tail === link) return
    this.unlink(link)
    this.append(link)
  }

  /** Takes a link (of this list) out. */
  remove(link: Link<T>): void {
    this.unlink(link)
  }

  /** The least recently used value. */
  oldest(): T | undefined {
    return this.head?.value
  }

  /** The values, least recently used first. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let link = this.head; link; link = link.next) yield link.value
  }

  clear(): void {
    this.head = this.tail = undefined
    this.#size = 0
  }

  private append(link: Link<T>) {
    link.prev = this.tail
    link.next = undefined
    if (this.tail) this.tail.next = link
    else this.head = link
    this.tail = link
    this.#size++
  }

  private unlink(link: Link<T>) {
    if (link.prev) link.prev.next = link.next
    else this.head = link.next
    if (link.next) link.next.prev = link.prev
    else this.tail = link.prev
    link.prev = link.next = undefined
    this.#size--
  }
}
