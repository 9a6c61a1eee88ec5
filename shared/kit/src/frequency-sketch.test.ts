import { describe, expect, test } from 'bun:test'
import { FrequencySketch } from './frequency-sketch'

describe('frequency sketch', () => {
  test('counts each key apart, up to 15', () => {
    const sketch = new FrequencySketch(4096)
    const keys = Array.from({ length: 1000 }, (_, i) => `event?slug=acara-${i}`)
    keys.forEach((key, i) => {
      for (let n = 0; n < i % 4; n++) sketch.increment(key)
    })
    // a count-min sketch never counts low; with 1,000 keys in 4,096 slots a row, rarely high
    const wrong = keys.filter((key, i) => sketch.frequency(key) !== i % 4)
    expect(keys.every((key, i) => sketch.frequency(key) >= i % 4)).toBe(true)
    expect(wrong.length).toBeLessThan(10)
    for (let n = 0; n < 40; n++) sketch.increment('hot')
    expect(sketch.frequency('hot')).toBe(15)
    expect(sketch.frequency('never asked')).toBe(0)
  })

  test('halves every count after ten increments a slot, so popularity fades', () => {
    const sketch = new FrequencySketch(64)
    for (let n = 0; n < 8; n++) sketch.increment('old')
    expect(sketch.frequency('old')).toBe(8)
    // 640 increments in all reach the sample size: every count is halved once
    for (let i = 0; i < 632; i++) sketch.increment(`other-${i}`)
    expect(sketch.frequency('old')).toBe(4)
  })
})
